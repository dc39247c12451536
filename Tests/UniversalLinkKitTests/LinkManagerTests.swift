import Foundation
import Synchronization
import _LinkKitLocking
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// Records what the manager hands to its opener.
final class OpenedURLs: Sendable {
    private let urls = Mutex<[URL]>([])
    var all: [URL] { urls.withTrackedLock { $0 } }
    var opener: URLOpener { URLOpener { url in self.urls.withTrackedLock { $0.append(url) }; return true } }
}

struct LinkManagerTests {
    static let appLink = URL("https://news.example.com/pub/acc?_ri_=X&_ei_=Y")
    static let nonAppLink = URL("https://news.example.com/pub/cc?_ri_=X")
    static let both = #"{"webLinkUrl":"https://www.example.com/products/1234","mobileDeepLinkUrl":"example-app://products/1234"}"#

    struct Fixture {
        let center = NotificationCenter()
        let recorder: NotificationRecorder
        let transport: ScriptedTransport
        let opened = OpenedURLs()
        let manager: LinkManager

        init(transport: ScriptedTransport = ScriptedTransport(fallback: { _ in .json(LinkManagerTests.both) }),
             configure: (inout LinkManager.Configuration) -> Void = { _ in }) {
            var configuration = LinkManager.Configuration()
            // Time is not what these tests are about: a deadline a loaded machine cannot reach (a full parallel
            // run under a sanitizer can hold a task for more than the default 10 s). Tests about deadlines set one.
            configuration.timeout = .seconds(3600)
            configure(&configuration)
            self.recorder = NotificationRecorder(center: center)
            self.transport = transport
            self.manager = LinkManager(configuration: configuration, transport: transport, notificationCenter: center, opener: opened.opener)
        }
    }

    @Test func anAppLinkActivityIsHandledResolvedAndNotifiedOnce() async throws {
        let fixture = Fixture()
        #expect(fixture.manager.continueUserActivity(UserActivity(browsingWeb: Self.appLink)))
        let links = await fixture.recorder.wait(forCount: 1)
        let link = try #require(links.first)
        #expect(link.requestedURL == Self.appLink)
        #expect(link.deepLinkURL == URL("example-app://products/1234"))
        #expect(link.webLinkURL == URL("https://www.example.com/products/1234"))
        #expect(link.isPubWeb)
        #expect(link.error == nil)
        await fixture.manager.waitUntilIdle()
        #expect(fixture.recorder.count == 1)
        #expect(fixture.transport.count == 1)
    }

    @Test(arguments: [
        UserActivity(activityType: "com.example.view-product", webpageURL: LinkManagerTests.appLink),
        UserActivity(browsingWeb: LinkManagerTests.nonAppLink),
        UserActivity(browsingWeb: URL("https://www.example.com/products/1")),
        UserActivity(activityType: UserActivity.browsingWeb, webpageURL: nil),
        UserActivity(browsingWeb: URL("example-app://pub/acc")),
    ])
    func anythingElseIsNotHandledAndMakesNoRequestNorNotification(activity: UserActivity) async throws {
        let fixture = Fixture()
        #expect(!fixture.manager.continueUserActivity(activity))
        await fixture.manager.waitUntilIdle()
        #expect(fixture.transport.count == 0)
        #expect(fixture.recorder.count == 0)
    }

    @Test func aRecognisedLinkOnARefusedHostIsHandledAsHostNotAllowedWithoutARequest() async throws {
        let fixture = Fixture { $0.policy.brandedDomains = ["news.example.com"] }
        #expect(fixture.manager.continueUserActivity(UserActivity(browsingWeb: URL("https://evil.example.org/pub/acc?x=1"))))
        let link = try #require(await fixture.recorder.wait(forCount: 1).first)
        #expect(link.error?.code == .hostNotAllowed)
        #expect(link.isPubWeb)
        #expect(fixture.transport.count == 0)
    }

    @Test func theSameURLWhileInFlightOrWithinTheWindowIsCoalesced() async throws {
        let transport = ScriptedTransport(fallback: { _ in
            try await Task.sleep(for: .milliseconds(200))
            return .json(LinkManagerTests.both)
        })
        // A window no load can outrun (time is not what this test is about): a parallel TSan run on busy cores can
        // hold this test for minutes.
        let fixture = Fixture(transport: transport) { $0.duplicateWindow = .seconds(3600) }
        let first = fixture.manager.handle(UserActivity(browsingWeb: Self.appLink))
        let second = fixture.manager.handle(UserActivity(browsingWeb: Self.appLink))
        #expect(first.isHandled && second.isHandled)
        #expect(!first.isDuplicate)
        #expect(second.isDuplicate)
        let original = await first.outcome
        #expect(await second.outcome.resolvedLink == original.resolvedLink)
        #expect(await second.outcome.isDuplicate)
        let third = fixture.manager.handle(UserActivity(browsingWeb: Self.appLink))  // within the window
        #expect(third.isDuplicate)
        #expect(await third.outcome.resolvedLink == original.resolvedLink)
        await fixture.manager.waitUntilIdle()
        #expect(transport.count == 1)
        #expect(fixture.recorder.count == 1)
        let other = fixture.manager.handle(UserActivity(browsingWeb: URL("https://news.example.com/pub/acc?_ri_=other")))
        #expect(!other.isDuplicate)
    }

    @Test func spellingsOfTheSameClickAreCoalescedButOtherQueriesAreNot() async throws {
        let fixture = Fixture()
        let handles = [
            "https://news.example.com/pub/acc?_ri_=1", "https://NEWS.example.com/pub/acc?_ri_=1",
            "HTTPS://news.example.com./pub/acc?_ri_=1", "https://news.example.com/pub/acc?_ri_=1#top",
            "https://news.example.com/pub/acc?_ri_=2",
        ].map { fixture.manager.handle(UserActivity(browsingWeb: URL(string: $0)!)) }
        #expect(handles.map(\.isDuplicate) == [false, true, true, true, false])
        await fixture.manager.waitUntilIdle()
        #expect(fixture.transport.count == 2)
        #expect(fixture.recorder.count == 2)
    }

    @Test func aSlowObserverDoesNotDelayAnotherLinksOutcome() async throws {
        let fixture = Fixture()
        let slowURL = URL("https://news.example.com/pub/acc?_ri_=slow")
        let fastURL = URL("https://news.example.com/pub/acc?_ri_=fast")
        let entered = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let token = fixture.center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            if ResolvedLink(notification: note)?.requestedURL == slowURL {
                entered.continuation.yield()
                // Blocks until the test has the other link's outcome; were an observer run under a lock of the
                // manager's, that outcome could not come and this would give up (after 120 s: a deadlock detector,
                // not a timing).
                _ = release.wait(timeout: .now() + 120)
            }
        }
        defer { fixture.center.removeObserver(token) }
        _ = try await fixture.manager.resolve(slowURL)
        var iterator = entered.stream.makeAsyncIterator()
        _ = await iterator.next()  // the slow observer is blocked in its callback now
        let fast = try await fixture.manager.resolve(fastURL)
        let observerStillBlocked = fixture.recorder.links(for: fastURL).isEmpty  // delivery still waits behind it
        release.signal()
        #expect(observerStillBlocked)
        #expect(fast.resolvedLink?.error == nil)
        await fixture.manager.waitUntilIdle()
        #expect(fixture.recorder.links.map(\.requestedURL) == [slowURL, fastURL])  // one order for every observer
    }

    @Test func theSameURLAfterTheWindowIsResolvedAgain() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(fallback: { _ in .json(LinkManagerTests.both) })
        let center = NotificationCenter()
        let recorder = NotificationRecorder(center: center)
        let manager = LinkManager(
            configuration: .init(duplicateWindow: .seconds(2)), transport: transport, notificationCenter: center,
            clock: clock.linkClock)
        let fixture = (manager: manager, transport: transport, recorder: recorder)
        _ = await fixture.manager.handle(UserActivity(browsingWeb: Self.appLink)).outcome
        #expect(fixture.manager.handle(UserActivity(browsingWeb: Self.appLink)).isDuplicate)
        clock.advance(by: .seconds(2))
        let again = fixture.manager.handle(UserActivity(browsingWeb: Self.appLink))
        #expect(!again.isDuplicate)
        _ = await again.outcome
        await fixture.manager.waitUntilIdle()
        #expect(fixture.transport.count == 2)
        #expect(fixture.recorder.count == 2)
    }

    @Test func aBurstIsResolvedConcurrentlyWithOneNotificationEach() async throws {
        // Every answer waits until all 40 requests are in flight at once: a serial resolver would never get there.
        let gate = Gate()
        let transport = ScriptedTransport(fallback: { _ in
            await gate.wait()
            return .json(LinkManagerTests.both)
        })
        let fixture = Fixture(transport: transport)
        let urls = (0..<40).map { URL(string: "https://news.example.com/pub/acc?_ri_=\($0)")! }
        for url in urls { fixture.manager.continueUserActivity(UserActivity(browsingWeb: url)) }
        await transport.waitForRequests(40)
        #expect(transport.peakConcurrency == 40)
        gate.open()
        await fixture.manager.waitUntilIdle()
        #expect(Set(fixture.recorder.links.map(\.requestedURL)) == Set(urls))
        #expect(fixture.recorder.count == 40)
    }

    @Test func everyFailureStillYieldsExactlyOneNotificationWithItsCode() async throws {
        let transport = ScriptedTransport(fallback: { request in
            switch request.url.query {
            case "f=status": return .status(404)
            case "f=json": return .json("[]")
            case "f=empty": return .json(#"{"webLinkUrl":null}"#)
            default: throw TransportError(.failedAfterAnswer)
            }
        })
        let fixture = Fixture(transport: transport)
        let expected: [String: LinkError.Code] = ["status": .httpStatus, "json": .invalidResponse, "empty": .missingDestination, "net": .network]
        for name in expected.keys {
            fixture.manager.continueUserActivity(UserActivity(browsingWeb: URL(string: "https://news.example.com/pub/acc?f=\(name)")!))
        }
        await fixture.manager.waitUntilIdle()
        let links = fixture.recorder.links
        #expect(fixture.recorder.count == 4)
        for link in links {
            let name = String(try #require(link.requestedURL.query).dropFirst(2))
            #expect(link.error?.code == expected[name], "\(name)")
        }
    }

    @Test func coldStartNotificationsWaitForResumeDelivery() async throws {
        let fixture = Fixture { $0.startsPaused = true }
        let handle = fixture.manager.handle(UserActivity(browsingWeb: Self.appLink))
        _ = await handle.outcome
        #expect(fixture.recorder.count == 0)
        #expect(fixture.manager.isDeliveryPaused)
        fixture.manager.isDeliveryPaused = false
        await fixture.manager.waitUntilIdle()
        #expect(fixture.recorder.count == 1)
    }

    // MARK: In-app hyperlinks

    @Test func inAppHyperlinksGoToTheOpenerWhenExecuteRsysWebURLIsOff() async throws {
        let fixture = Fixture()
        #expect(!fixture.manager.executeRsysWebURL)
        let handle = fixture.manager.inAppHyperlink(Self.appLink)
        #expect(handle.isHandled)
        #expect(await handle.outcome.openedURL == Self.appLink)
        #expect(fixture.opened.all == [Self.appLink])
        await fixture.manager.waitUntilIdle()
        #expect(fixture.recorder.count == 0)
        #expect(fixture.transport.count == 0)
    }

    @Test(arguments: [LinkManagerTests.appLink, LinkManagerTests.nonAppLink])
    func pubWebInAppHyperlinksAreResolvedWhenExecuteRsysWebURLIsOn(url: URL) async throws {
        let fixture = Fixture()
        fixture.manager.executeRsysWebURL = true
        let outcome = await fixture.manager.inAppHyperlink(url).outcome
        #expect(outcome.resolvedLink?.webLinkURL == URL("https://www.example.com/products/1234"))
        #expect(outcome.resolvedLink?.isPubWeb == true)
        await fixture.manager.waitUntilIdle()
        #expect(fixture.recorder.count == 1)
        #expect(fixture.transport.count == 1)
        #expect(fixture.opened.all.isEmpty)
    }

    @Test func otherInAppHyperlinksPassThroughAsNonPubWebNotifications() async throws {
        let fixture = Fixture(configure: { $0.executeRsysWebURL = true })
        fixture.manager.handleInAppHyperlink(URL("https://www.example.com/sale"))
        fixture.manager.handleInAppHyperlink(URL("example-app://cart"))
        await fixture.manager.waitUntilIdle()
        let links = fixture.recorder.links
        #expect(links == [
            ResolvedLink(requestedURL: URL("https://www.example.com/sale"), webLinkURL: URL("https://www.example.com/sale"), isPubWeb: false),
            ResolvedLink(requestedURL: URL("example-app://cart"), deepLinkURL: URL("example-app://cart"), isPubWeb: false),
        ])
        #expect(fixture.transport.count == 0)
    }

    @Test(arguments: [true, false])
    func unsafeInAppHyperlinksAreNeverOpenedButNotifiedAsUnsafe(execute: Bool) async throws {
        let fixture = Fixture(configure: { $0.executeRsysWebURL = execute })
        for string in ["javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd", "VBScript:x"] {
            let outcome = await fixture.manager.inAppHyperlink(URL(string: string)!).outcome
            #expect(outcome.openedURL == nil)
            #expect(outcome.resolvedLink?.error?.code == .unsafeLink)
        }
        #expect(fixture.opened.all.isEmpty)
        await fixture.manager.waitUntilIdle()
        #expect(fixture.recorder.count == 4)
    }

    // MARK: Push

    @Test func aPushWithAPubWebURLIsTreatedLikeAnInAppHyperlink() async throws {
        let fixture = Fixture(configure: { $0.executeRsysWebURL = true })
        let outcome = await fixture.manager.remoteNotification(["u": Self.appLink.absoluteString, "aps": ["alert": "Hi"]]).outcome
        #expect(outcome.resolvedLink?.deepLinkURL == URL("example-app://products/1234"))
        await fixture.manager.waitUntilIdle()
        #expect(fixture.recorder.count == 1)

        fixture.manager.executeRsysWebURL = false
        let off = await fixture.manager.remoteNotification(["u": Self.nonAppLink.absoluteString]).outcome
        #expect(off.openedURL == Self.nonAppLink)
    }

    @Test func aPushWithAnotherURLGoesToTheOpenerWithoutANotification() async throws {
        let fixture = Fixture()
        let outcome = await fixture.manager.remoteNotification(["u": "example-app://inbox"]).outcome
        #expect(outcome.openedURL == URL("example-app://inbox"))
        await fixture.manager.waitUntilIdle()
        #expect(fixture.recorder.count == 0)
    }

    @Test(arguments: [[:], ["u": 42], ["u": ""], ["u": "not a url"], ["u": "https://[::1"]] as [[String: any Sendable]])
    func aPushWithoutAUsableURLIsNotHandled(payload: [String: any Sendable]) async throws {
        let fixture = Fixture()
        #expect(!fixture.manager.remoteNotification(payload).isHandled)
        #expect(fixture.opened.all.isEmpty)
        #expect(fixture.recorder.count == 0)
    }

    // MARK: openURL and resolve

    @Test func openURLHandlesAppLinksAndRefusesUnsafeURLs() async throws {
        let fixture = Fixture()
        #expect(fixture.manager.openURL(Self.appLink))
        #expect(!fixture.manager.openURL(URL("javascript:alert(1)")))
        #expect(!fixture.manager.openURL(URL("example-app://x")))  // no router set
        await fixture.recorder.wait(forCount: 1)
        #expect(fixture.recorder.count == 1)
    }

    @Test func executeRsysWebURLIsSafeToFlipFromManyTasks() async {
        let fixture = Fixture()
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<200 {
                group.addTask { fixture.manager.executeRsysWebURL = n.isMultiple(of: 2) }
                group.addTask { _ = fixture.manager.executeRsysWebURL }
            }
        }
        fixture.manager.executeRsysWebURL = true
        #expect(fixture.manager.executeRsysWebURL)
    }
}
