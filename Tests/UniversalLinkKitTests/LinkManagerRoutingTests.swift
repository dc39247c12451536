import Foundation
import LinkRouting
import Synchronization
import _LinkKitLocking
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// Records which route handled what.
final class RouteLog: Sendable {
    private let entries = Mutex<[String]>([])
    var all: [String] { entries.withTrackedLock { $0 } }
    func append(_ entry: String) { entries.withTrackedLock { $0.append(entry) } }
}

struct LinkManagerRoutingTests {
    static let tracking = URL("https://news.example.com/pub/acc?_ri_=X")

    struct Fixture {
        let center = NotificationCenter()
        let recorder: NotificationRecorder
        let opened = OpenedURLs()
        let log = RouteLog()
        let router = LinkRouter()
        let manager: LinkManager

        init(answer: String) {
            recorder = NotificationRecorder(center: center)
            let transport = ScriptedTransport(fallback: { _ in .json(answer) })
            manager = LinkManager(transport: transport, notificationCenter: center, opener: opened.opener, router: router)
            let log = self.log
            router.addRoute("/products/:id", namespace: .scheme("example-app")) { parameters in
                log.append("product \(parameters["id"] ?? "?")")
                return true
            }
            router.addRoute("https://www.example.com/invites/:code", group: "invites") { parameters in
                log.append("invite \(parameters["code"] ?? "?")")
                return true
            }
            router.addRoute("https://news.example.com/pub/acc") { _ in
                log.append("tracking URL routed")
                return true
            }
        }

        /// Activates a link and returns its outcome once its notification was delivered too.
        func activate(_ url: URL = LinkManagerRoutingTests.tracking) async -> LinkOutcome {
            let outcome = await manager.handle(UserActivity(browsingWeb: url)).outcome
            await manager.waitUntilIdle()
            return outcome
        }
    }

    @Test func aResolvedDeepLinkIsNotifiedAndRouted() async {
        let fixture = Fixture(answer: #"{"webLinkUrl":"https://www.example.com/products/42","mobileDeepLinkUrl":"example-app://products/42"}"#)
        let outcome = await fixture.activate()
        #expect(outcome.routedURL == URL("example-app://products/42"))
        #expect(fixture.log.all == ["product 42"])
        #expect(fixture.opened.all.isEmpty)
        #expect(fixture.recorder.count == 1)
    }

    @Test func withoutADeepLinkTheWebLinkIsRoutedByAHostAwareRoute() async {
        let fixture = Fixture(answer: #"{"webLinkUrl":"https://www.example.com/invites/ABC","mobileDeepLinkUrl":null}"#)
        let outcome = await fixture.activate()
        #expect(outcome.routedURL == URL("https://www.example.com/invites/ABC"))
        #expect(fixture.log.all == ["invite ABC"])
    }

    @Test func aDeepLinkNoRouteTakesFallsBackToTheWebLinkThenTheOpener() async {
        let routed = Fixture(answer: #"{"webLinkUrl":"https://www.example.com/invites/XYZ","mobileDeepLinkUrl":"example-app://unknown/1"}"#)
        #expect(await routed.activate().routedURL == URL("https://www.example.com/invites/XYZ"))

        let opened = Fixture(answer: #"{"webLinkUrl":"https://www.example.com/blog/1","mobileDeepLinkUrl":"example-app://unknown/1"}"#)
        let outcome = await opened.activate()
        #expect(outcome.routedURL == nil)
        #expect(outcome.openedURL == URL("https://www.example.com/blog/1"))
        #expect(opened.opened.all == [URL("https://www.example.com/blog/1")])
        #expect(opened.recorder.count == 1)
    }

    @Test func aDisabledRouteGroupBehavesAsIfAbsent() async {
        let fixture = Fixture(answer: #"{"webLinkUrl":"https://www.example.com/invites/ABC"}"#)
        fixture.router.setGroup("invites", enabled: false)
        let off = await fixture.activate()
        #expect(off.routedURL == nil)
        #expect(off.openedURL == URL("https://www.example.com/invites/ABC"))
        fixture.router.setGroup("invites", enabled: true)
        let on = await fixture.activate(URL("https://news.example.com/pub/acc?_ri_=again"))
        #expect(on.routedURL == URL("https://www.example.com/invites/ABC"))
    }

    @Test func theRequestedTrackingURLIsNeverRoutedOrOpenedAgain() async {
        // A misconfigured link table that points back at the tracking link must not loop.
        let fixture = Fixture(answer: #"{"webLinkUrl":"\#(Self.tracking.absoluteString)"}"#)
        let outcome = await fixture.activate()
        #expect(outcome.resolvedLink?.webLinkURL == Self.tracking)
        #expect(outcome.routedURL == nil)
        #expect(outcome.openedURL == nil)
        #expect(fixture.log.all.isEmpty)
        #expect(fixture.recorder.count == 1)
    }

    @Test func aFailedResolutionIsNotRouted() async {
        let fixture = Fixture(answer: "[]")
        let outcome = await fixture.activate()
        #expect(outcome.resolvedLink?.error?.code == .invalidResponse)
        #expect(outcome.routedURL == nil && outcome.openedURL == nil)
        #expect(fixture.log.all.isEmpty)
    }

    @Test func customSchemeURLsFromPushAndOpenURLGoToTheRouter() async {
        let fixture = Fixture(answer: "{}")
        let push = await fixture.manager.remoteNotification(["u": "example-app://products/7"]).outcome
        #expect(push.routedURL == URL("example-app://products/7"))
        #expect(fixture.manager.openURL(URL("example-app://products/8")))
        #expect(!fixture.manager.openURL(URL("example-app://nowhere")))
        #expect(fixture.log.all == ["product 7", "product 8"])
        #expect(fixture.recorder.count == 0)
    }
}

extension LinkManagerRoutingTests {
    @Test func theOutcomeNamesTheRouteAndItsParameters() async {
        let fixture = Fixture(answer: #"{"webLinkUrl":"https://www.example.com/products/42","mobileDeepLinkUrl":"example-app://products/42?ref=mail"}"#)
        let outcome = await fixture.activate()
        #expect(outcome.route?.pattern == "/products/:id")
        #expect(outcome.route?.parameters["id"] == "42")
        #expect(outcome.route?.parameters["ref"] == "mail")
    }
}
