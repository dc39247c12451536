import Foundation
import LinkRouting

/// What the manager did with a URL handed to it, returned at once; ``outcome`` follows when it is done.
///
/// ```swift
/// let handle = manager.handle(UserActivity(browsingWeb: url))
/// if handle.isDuplicate { logger.debug("coalesced with an earlier activation") }
/// let link = await handle.outcome.resolvedLink
/// ```
public struct LinkHandle: Sendable {
    /// The URL handed in, if there was one.
    public let url: URL?
    /// Whether the manager took the URL (for activities: it is a pub-web app link).
    public let isHandled: Bool
    /// Whether this activation joined an earlier one of the same URL (in flight or within the duplicate
    /// window): no request was made and no notification will be posted for it.
    public let isDuplicate: Bool

    let pending: PendingOutcome?
    private let immediate: LinkOutcome

    init(url: URL?, isHandled: Bool, isDuplicate: Bool, pending: PendingOutcome) {
        self.url = url
        self.isHandled = isHandled
        self.isDuplicate = isDuplicate
        self.pending = pending
        self.immediate = LinkOutcome()
    }

    init(url: URL?, isHandled: Bool, outcome: LinkOutcome) {
        self.url = url
        self.isHandled = isHandled
        self.isDuplicate = false
        self.pending = nil
        self.immediate = outcome
    }

    /// What finally happened: the broadcast content, and where the link was routed or opened.
    ///
    /// Ready as soon as the link is resolved and routed; its notification is delivered in order on the broadcaster's
    /// queue and may reach slow observers later (``LinkManager/waitUntilIdle()`` waits for both). For a duplicate,
    /// the outcome of the activation it joined, with ``LinkOutcome/isDuplicate`` set.
    public var outcome: LinkOutcome {
        get async {
            guard let pending else { return immediate }
            var outcome = await pending.value
            outcome.isDuplicate = isDuplicate
            return outcome
        }
    }
}

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
    public init(
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
