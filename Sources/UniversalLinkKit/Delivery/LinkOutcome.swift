import Foundation
import LinkRouting

/// What finally happened to a handled URL.
public struct LinkOutcome: Sendable, Hashable {
    /// The content of the notification broadcast for the URL, or `nil` when none was (the URL was handed to the
    /// opener or the router directly). Always set for ``LinkManager/resolve(_:timeout:)``.
    public var resolvedLink: ResolvedLink?
    /// The URL a route of the router accepted, if any.
    public var routedURL: URL?
    /// The URL handed to the opener, if any.
    public var openedURL: URL?
    /// Whether the activation joined an earlier one of the same click: it made no request and no notification.
    public var isDuplicate: Bool
    /// The route that accepted ``routedURL``: its pattern, namespace, name and parameters.
    public var route: MatchedRoute?

    /// Creates an outcome.
    ///
    /// - Parameters:
    ///   - resolvedLink: The broadcast content.
    ///   - routedURL: The URL a route accepted.
    ///   - openedURL: The URL handed to the opener.
    ///   - isDuplicate: Whether the activation joined an earlier one.
    ///   - route: The route that accepted `routedURL`.
    package init(
        resolvedLink: ResolvedLink? = nil,
        routedURL: URL? = nil,
        openedURL: URL? = nil,
        isDuplicate: Bool = false,
        route: MatchedRoute? = nil
    ) {
        self.resolvedLink = resolvedLink
        self.routedURL = routedURL
        self.openedURL = openedURL
        self.isDuplicate = isDuplicate
        self.route = route
    }
}
