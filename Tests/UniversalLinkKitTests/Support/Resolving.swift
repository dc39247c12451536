import Foundation
@testable import UniversalLinkKit

/// The resolver as the transport and hostile-server tests drive it: one link, straight through `prepare` and
/// `resolve`, without a manager's coalescing (so each call is one click).
extension LinkResolver {
    typealias Configuration = LinkManager.Configuration.Resolution

    init(configuration: Configuration = .init(), transport: any LinkTransport, clock: LinkClock = .continuous) {
        self.init(configuration: configuration, transport: transport, clock: clock, events: EventReporter(handler: nil))
    }

    /// Resolves `url`; throws the link's error when it has no destination (a refusal or a failed resolution).
    func resolve(
        _ url: URL, startedAt: ContinuousClock.Instant? = nil, deadline: ContinuousClock.Instant? = nil
    ) async throws(LinkError) -> ResolvedLink {
        let resolution = try prepare(url, startedAt: startedAt, limit: deadline).get()
        let link = await resolve(resolution)
        if let error = link.error, link.destinationURL == nil { throw error }
        return link
    }
}
