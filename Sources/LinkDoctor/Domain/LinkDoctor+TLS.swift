import Foundation
import UniversalLinkKit

extension LinkDoctor {
    /// The `tls.*` report of the domain's host, or `nil` when it is not checked: fetched over plain `http`, TLS
    /// checks off, or a host the policy or the address check refuses (the fetches report that).
    ///
    /// The checks start the domain check's one deadline, ``Configuration/timeout`` on the system clock (libcurl's
    /// own timeout), whatever the injected clock; the domain's fetches that follow get what is left of it.
    func inspectTLS(of domain: String) async -> TLSInspection.Report? {
        guard configuration.checksTLS, originScheme == "https", let url = URL(string: "https://\(domain)/"),
              configuration.policy.check(url) == nil, let host = url.host(percentEncoded: false)
        else { return nil }
        let deadline = ContinuousClock.now + configuration.timeout
        let addresses = try? await CheckedAddress.resolve(
            host, with: .system, allowsLocalAddresses: configuration.policy.allowsLocalHosts, deadline: deadline)
        guard let addresses else { return nil }
        return await TLSInspection(
            domain: domain, addresses: addresses.map(\.text), caFile: configuration.caFile,
            timeout: configuration.timeout, deadline: deadline, now: Date()
        ).run()
    }

    /// The fetcher of the domain's own files, within what the TLS checks left of the deadline: without verification
    /// when its HTTPS has errors the report names (so the files are still judged), with the CA file's roots when one
    /// is given, else the injected transport.
    func originFetcher(after report: TLSInspection.Report?) -> AssociationFetcher {
        var fetcher = self.fetcher
        if let report, report.connects, report.findings.contains(where: { $0.severity == .error }) {
            fetcher = unverifiedFetcher()
        } else if let caFile = configuration.caFile, originScheme == "https" {
            fetcher = trustingFetcher(caFile: caFile)
        }
        if let report { fetcher.timeout = max(.zero, min(fetcher.timeout, report.deadline - .now)) }
        return fetcher
    }

    /// A fetcher on a `CurlTransport` trusting the roots in `caFile` instead of the system's, under the same
    /// policy, clock and timeout.
    func trustingFetcher(caFile: String) -> AssociationFetcher {
        let transport: any LinkTransport = CurlTransport.make(configuration: .init(caFile: caFile)) ?? self.transport
        return AssociationFetcher(transport: transport, clock: clock, policy: configuration.policy, timeout: configuration.timeout)
    }

    /// A fetcher that reads whatever certificate the server presents, for the files of a domain whose HTTPS the
    /// report names; under the same policy, clock and timeout.
    func unverifiedFetcher() -> AssociationFetcher {
        AssociationFetcher(
            transport: TLSFetchTransport(), clock: clock, policy: configuration.policy, timeout: configuration.timeout)
    }
}
