import Foundation
import UniversalLinkKit

extension LinkDoctor {
    /// The `tls.*` report of the domain's host, or `nil` when it is not checked: fetched over plain `http`, TLS
    /// checks off, or a host the policy or the address check refuses (the fetches report that).
    ///
    /// The checks keep ``Configuration/timeout`` as one deadline on the system clock (libcurl's own timeout),
    /// whatever the injected clock.
    func inspectTLS(of domain: String) async -> TLSInspection.Report? {
        guard configuration.checksTLS, originScheme == "https", let url = URL(string: "https://\(domain)/"),
              configuration.policy.check(url) == nil, let host = url.host(percentEncoded: false)
        else { return nil }
        let deadline = ContinuousClock.now + configuration.timeout
        let allowsLocal = configuration.policy.allowsLocalHosts
        let addresses = try? await withDeadline(deadline, clock: .continuous) {
            try await AddressScreen.addresses(of: host, allowsLocalAddresses: allowsLocal)
        }
        guard let addresses else { return nil }
        return await TLSInspection(
            domain: domain, addresses: addresses, caFile: configuration.caFile, timeout: configuration.timeout,
            deadline: deadline, now: Date()
        ).run()
    }

    /// The fetcher of the domain's own files: without verification when its HTTPS has errors the report names
    /// (so the files are still judged), with the CA file's roots when one is given, else the injected transport.
    func originFetcher(after report: TLSInspection.Report?) -> AssociationFetcher {
        if let report, report.connects, report.findings.contains(where: { $0.severity == .error }) {
            return trustingFetcher(caFile: configuration.caFile, verifies: false)
        }
        if let caFile = configuration.caFile, originScheme == "https" { return trustingFetcher(caFile: caFile, verifies: true) }
        return fetcher
    }

    /// A fetcher on libcurl with the doctor's TLS settings, under the same policy, clock and timeout.
    func trustingFetcher(caFile: String?, verifies: Bool) -> AssociationFetcher {
        AssociationFetcher(
            transport: TLSFetchTransport(caFile: caFile, verifies: verifies), clock: clock, policy: configuration.policy,
            timeout: configuration.timeout)
    }
}
