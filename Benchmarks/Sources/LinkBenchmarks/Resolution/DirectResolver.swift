import Foundation
import UniversalLinkKit

/// One link resolved through a `LinkManager` on a private notification center: the public way a host resolves a
/// link, each link of a row a new click.
struct DirectResolver: Sendable {
    let manager: LinkManager

    init(configuration: LinkManager.Configuration = .init(), transport: (any LinkTransport)? = nil) {
        manager = LinkManager(configuration: configuration, transport: transport, notificationCenter: NotificationCenter())
    }

    /// The resolved link (its `error` set when the resolution failed).
    func resolve(_ url: URL) async throws -> ResolvedLink {
        guard let link = try await manager.resolve(url).resolvedLink else { preconditionFailure("resolve sets the link") }
        return link
    }
}
