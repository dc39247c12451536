import Foundation
import LinkRouting
import Testing
@testable import UniversalLinkKit

/// Where a known link goes: the router, else the opener; never the tracking link again.
struct LinkDispatcherTests {
    static let tracking = URL("https://news.example.com/pub/acc?_ri_=X")
    static let deep = URL("example-app://products/1")
    static let web = URL("https://www.example.com/products/1")

    func dispatcher(routes: [String] = [], opened: Tally? = nil) -> LinkDispatcher {
        let router = LinkRouter()
        for pattern in routes { router.addRoute(pattern, namespace: .scheme("example-app")) { _ in true } }
        return LinkDispatcher(router: router, opener: URLOpener { url in opened?.add(url.absoluteString); return true })
    }

    @Test func theDeepLinkIsRoutedFirst() {
        let link = ResolvedLink(requestedURL: Self.tracking, deepLinkURL: Self.deep, webLinkURL: Self.web, isPubWeb: true)
        let outcome = dispatcher(routes: ["/products/:id"]).dispatch(link)
        #expect(outcome.routedURL == Self.deep)
        #expect(outcome.route?.pattern == "/products/:id")
        #expect(outcome.openedURL == nil)
    }

    @Test func whenNoRouteTakesEitherTheWebLinkIsOpened() {
        let opened = Tally()
        let link = ResolvedLink(requestedURL: Self.tracking, deepLinkURL: Self.deep, webLinkURL: Self.web, isPubWeb: true)
        let outcome = dispatcher(opened: opened).dispatch(link)
        #expect(outcome.openedURL == Self.web)
        #expect(opened.total == 1)
    }

    @Test func theTrackingLinkAndUnsafeLinksAreNeverRoutedOrOpened() {
        let opened = Tally()
        let echo = ResolvedLink(requestedURL: Self.tracking, webLinkURL: Self.tracking, isPubWeb: true)
        #expect(dispatcher(opened: opened).dispatch(echo).openedURL == nil)
        let unsafe = ResolvedLink(requestedURL: Self.tracking, deepLinkURL: URL("javascript:alert(1)"), isPubWeb: true)
        #expect(dispatcher(opened: opened).dispatch(unsafe).openedURL == nil)
        #expect(opened.total == 0)
    }

    @Test func aFailedLinkWithoutADestinationGoesNowhere() {
        let opened = Tally()
        let failed = ResolvedLink(
            requestedURL: Self.tracking, isPubWeb: true, error: LinkError(code: .timeout, message: "late"))
        let outcome = dispatcher(routes: ["/products/:id"], opened: opened).dispatch(failed)
        #expect(outcome.routedURL == nil && outcome.openedURL == nil)
        #expect(opened.total == 0)
    }

    /// A server's manager has no router: the link is only reported, with its answer as the answer gave it.
    @Test func withoutARouterALinkIsNeitherRoutedNorOpened() {
        let opened = Tally()
        let link = ResolvedLink(requestedURL: Self.tracking, deepLinkURL: Self.deep, webLinkURL: Self.web, isPubWeb: true)
        let outcome = LinkDispatcher(router: nil, opener: URLOpener { url in opened.add(url.absoluteString); return true })
            .dispatch(link)
        #expect(outcome.routedURL == nil && outcome.openedURL == nil)
        #expect(outcome.resolvedLink == link)
        #expect(outcome.resolvedLink?.deepLinkURL == Self.deep)
        #expect(opened.total == 0)
    }
}
