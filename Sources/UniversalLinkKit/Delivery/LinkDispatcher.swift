import Foundation
import LinkRouting

/// Where a link goes once it is known: the router, else the opener. One decision, used by every entry point.
///
/// For a resolved link: the deep link, else the web link, through the router; when no route takes either, the web
/// link (else the deep link) goes to the opener. The requested tracking URL is never handled again: routing it would
/// request it, and count the click, a second time. Unsafe URLs are never routed or opened.
struct LinkDispatcher: Sendable {
    let router: LinkRouter?
    let opener: URLOpener

    /// Routes or opens the destination of a resolved link.
    ///
    /// - Parameter link: The resolved link (after its notification was posted).
    /// - Returns: The outcome: the link, and the URL routed or opened, if any.
    func dispatch(_ link: ResolvedLink) -> LinkOutcome {
        var outcome = LinkOutcome(resolvedLink: link)
        guard let router else { return outcome }
        let deepLinkURL = link.deepLinkURL
        let webLinkURL = link.webLinkURL
        guard link.error == nil || deepLinkURL != nil || webLinkURL != nil else { return outcome }
        for candidate in [deepLinkURL, webLinkURL].compactMap({ $0 })
        where candidate != link.requestedURL && !LinkSafety.isUnsafe(candidate) {
            if let route = router.routeReturningMatch(candidate) {
                outcome.routedURL = candidate
                outcome.route = route
                return outcome
            }
        }
        if let fallback = webLinkURL ?? deepLinkURL, fallback != link.requestedURL,
           !LinkSafety.isUnsafe(fallback) {
            opener.open(fallback)
            outcome.openedURL = fallback
        }
        return outcome
    }

    /// Routes a URL that needs no resolution (a push URL that is not a pub-web link), else opens it.
    ///
    /// - Parameter url: The URL.
    /// - Returns: The outcome, with no resolved link.
    func dispatch(_ url: URL) -> LinkOutcome {
        if let route = router?.routeReturningMatch(url) {
            return LinkOutcome(routedURL: url, route: route)
        }
        opener.open(url)
        return LinkOutcome(openedURL: url)
    }

    /// Hands a URL straight to the opener (in-app hyperlinks with `executeRsysWebURL` off).
    func open(_ url: URL) -> LinkOutcome {
        opener.open(url)
        return LinkOutcome(openedURL: url)
    }
}
