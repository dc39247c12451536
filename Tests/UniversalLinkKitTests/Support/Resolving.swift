import Foundation
@testable import UniversalLinkKit

/// The transport, hostile-server and resolution tests resolve one link at a time through a `LinkManager` of its own
/// (the public road: recognition, the policy, one resolution, one notification), so each call is one click.
struct TestResolver: Sendable {
    let configuration: LinkManager.Configuration.Resolution
    let transport: any LinkTransport
    let clock: LinkClock

    init(
        configuration: LinkManager.Configuration.Resolution = .init(), transport: any LinkTransport,
        clock: LinkClock = .continuous
    ) {
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
    }

    /// Resolves `url`; throws the link's error when it has no destination (a refusal or a failed resolution).
    ///
    /// - Parameters:
    ///   - url: A pub-web app link.
    ///   - startedAt: When the activation happened, when earlier than now (the deadline counts from there).
    ///   - deadline: The caller's own deadline, if any.
    func resolve(
        _ url: URL, startedAt: ContinuousClock.Instant? = nil, deadline: ContinuousClock.Instant? = nil
    ) async throws(LinkError) -> ResolvedLink {
        var configuration = self.configuration
        if let startedAt { configuration.timeout -= clock.now - startedAt }
        let manager = LinkManager(
            configuration: .init(resolution: configuration), transport: transport,
            notificationCenter: NotificationCenter(), clock: clock)
        let outcome = try await manager.resolve(url, timeout: deadline.map { $0 - clock.now })
        guard let link = outcome.resolvedLink else { preconditionFailure("resolve always sets the link") }
        if let error = link.error, link.destinationURL == nil { throw error }
        return link
    }
}

