import Foundation
import Synchronization
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

struct LinkBroadcasterTests {
    func link(_ n: Int) -> ResolvedLink {
        ResolvedLink(requestedURL: URL(string: "https://news.example.com/pub/acc?n=\(n)")!,
                     webLinkURL: URL(string: "https://www.example.com/\(n)"), isPubWeb: true)
    }

    @Test func postsOneNotificationPerLinkWithThePIOKeys() async throws {
        let center = NotificationCenter()
        let recorder = NotificationRecorder(center: center)
        let broadcaster = LinkBroadcaster(center: center, startsPaused: false, events: EventReporter(handler: nil))
        var withError = link(1)
        withError.deepLinkURL = URL(string: "example-app://x")
        withError.error = LinkError(code: .unsafeLink, message: "m")
        broadcaster.post(withError)
        await broadcaster.flush()
        #expect(recorder.links == [withError])
    }

    @Test func userInfoCarriesStringsABoolAndTheErrorAndOmitsWhatIsAbsent() throws {
        let info = ResolvedLink(
            requestedURL: URL(string: "https://news.example.com/pub/acc?a=1")!, webLinkURL: URL(string: "https://w.example.com/"),
            isPubWeb: true, error: LinkError(code: .unsafeLink, message: "dropped")
        ).userInfo
        #expect(info[PIORequestedWebURL] as? String == "https://news.example.com/pub/acc?a=1")
        #expect(info[PIOResolvedWeblinkURL] as? String == "https://w.example.com/")
        #expect(info[PIOResolvedDeeplinkURL] == nil)
        #expect(info[PIORequestedWebURLIsPubWebType] as? Bool == true)
        #expect((info[PIOErrorResolveWebURL] as? LinkError)?.code == .unsafeLink)
        #expect(Notification.Name.PIORsysWebURLResolved.rawValue == "PIORsysWebURLResolvedNotification")
        #expect([PIOResolvedDeeplinkURL, PIOResolvedWeblinkURL, PIORequestedWebURL, PIORequestedWebURLIsPubWebType, PIOErrorResolveWebURL]
            == ["PIOResolvedDeeplinkURL", "PIOResolvedWeblinkURL", "PIORequestedWebURL", "PIORequestedWebURLIsPubWebType", "PIOErrorResolveWebURL"])
    }

    @Test func holdsNotificationsWhilePausedAndDeliversThemInOrderOnResume() async {
        let center = NotificationCenter()
        let broadcaster = LinkBroadcaster(center: center, startsPaused: true, events: EventReporter(handler: nil))
        for n in 0..<5 { broadcaster.post(link(n)) }
        let recorder = NotificationRecorder(center: center)  // the host becomes ready only now
        #expect(broadcaster.undeliveredCount == 5)
        #expect(recorder.count == 0)
        broadcaster.resumeDelivery()
        await broadcaster.flush()
        #expect(recorder.links == (0..<5).map(link))
        broadcaster.pauseDelivery()
        broadcaster.post(link(5))
        #expect(broadcaster.undeliveredCount == 1)
        #expect(recorder.count == 5)
        broadcaster.resumeDelivery()
        await broadcaster.flush()
        #expect(recorder.links.last == link(5))
    }

    @Test func anObserverMayPostPauseAndResumeFromInsideItsCallbackWithoutDeadlock() async {
        let center = NotificationCenter()
        let broadcaster = LinkBroadcaster(center: center, startsPaused: false, events: EventReporter(handler: nil))
        let recorder = NotificationRecorder(center: center)
        let token = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            switch ResolvedLink(notification: note)?.requestedURL.query {
            case "n=0":
                broadcaster.post(self.link(1))  // delivered right after the current notification
                broadcaster.pauseDelivery()
                broadcaster.resumeDelivery()
            case "n=1":
                broadcaster.pauseDelivery()
            default:
                break
            }
        }
        defer { center.removeObserver(token) }
        broadcaster.post(link(0))
        // `flush` waits for what was posted before it: link 0 first; link 1 is posted from link 0's callback, so
        // it exists once the first flush returns, and the second waits until it reached every observer, including
        // the one that pauses.
        await broadcaster.flush()
        await broadcaster.flush()
        broadcaster.post(link(2))  // paused by the observer: held
        #expect(broadcaster.isPaused)
        #expect(recorder.links == [link(0), link(1)])
        broadcaster.resumeDelivery()
        await broadcaster.flush()
        #expect(recorder.links == [link(0), link(1), link(2)])
    }

    @Test func aSlowObserverNeverBlocksThePosterAndDelaysOnlyTheNotificationsBehindIt() async throws {
        let center = NotificationCenter()
        let broadcaster = LinkBroadcaster(center: center, startsPaused: false, events: EventReporter(handler: nil))
        let recorder = NotificationRecorder(center: center)
        let entered = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let token = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            if ResolvedLink(notification: note)?.requestedURL.query == "n=0" {
                entered.continuation.yield()
                // Until the test posted the next link. The test always signals; the hour only keeps a broken build
                // from hanging forever (10 s ran out in a TSan run with the tests in parallel and both cores busy,
                // and the observer let link 1 through before the test looked).
                _ = release.wait(timeout: .now() + 3600)
            }
        }
        defer { center.removeObserver(token) }
        broadcaster.post(link(0))
        var iterator = entered.stream.makeAsyncIterator()
        _ = await iterator.next()  // the slow observer is running now
        // Observers run outside the broadcaster's lock: this post returns while the slow observer runs.
        broadcaster.post(link(1))
        #expect(broadcaster.undeliveredCount == 2)  // link 0 with the slow observer, link 1 behind it
        #expect(!recorder.links.contains(link(1)))  // link 1 waits behind the slow observer
        release.signal()
        await broadcaster.flush()
        #expect(recorder.links == [link(0), link(1)])  // one order for every observer
    }

    @Test func subscribersSeeTheLinksPostedAfterTheySubscribedInOrderUntilFinished() async {
        let broadcaster = LinkBroadcaster(center: NotificationCenter(), startsPaused: false, events: EventReporter(handler: nil))
        broadcaster.post(link(0))
        await broadcaster.flush()
        let results = broadcaster.subscribe(bufferingNewest: 1024)
        for n in 1...3 { broadcaster.post(link(n)) }
        await broadcaster.flush()
        broadcaster.finishSubscriptions()
        var seen: [ResolvedLink] = []
        for await link in results { seen.append(link) }
        #expect(seen == [link(1), link(2), link(3)])
    }

    @Test func aSubscriberThatFallsBehindKeepsTheNewestLinksUpToItsLimit() async {
        let broadcaster = LinkBroadcaster(center: NotificationCenter(), startsPaused: false, events: EventReporter(handler: nil))
        let results = broadcaster.subscribe(bufferingNewest: 2)
        for n in 0..<5 { broadcaster.post(link(n)) }
        await broadcaster.flush()
        broadcaster.finishSubscriptions()
        var seen: [ResolvedLink] = []
        for await link in results { seen.append(link) }
        #expect(seen == [link(3), link(4)])
    }

    @Test func eventsSayWhatWasHeldReleasedAndDelivered() async {
        let events = EventLog()
        let broadcaster = LinkBroadcaster(center: NotificationCenter(), startsPaused: true, events: EventReporter(handler: events.handler))
        broadcaster.post(link(0))
        broadcaster.resumeDelivery()
        await broadcaster.flush()
        #expect(events.kinds == [.held, .released, .delivered])
    }

    /// The delivery thread counts a link as delivered when it looks for the next one (one lock per link): each
    /// observer still finds the links before its own counted, so a `flush()` for them has returned by then.
    @Test(.timeLimit(.minutes(1))) func eachLinkIsCountedDeliveredBeforeTheNextIsPosted() async {
        let center = NotificationCenter()
        let broadcaster = LinkBroadcaster(center: center, startsPaused: true, events: EventReporter(handler: nil))
        let undelivered = Mutex<[Int]>([])
        let token = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { _ in
            let count = broadcaster.undeliveredCount
            undelivered.withLock { $0.append(count) }
        }
        defer { center.removeObserver(token) }
        for n in 0..<3 { broadcaster.post(link(n)) }
        broadcaster.resumeDelivery()
        await broadcaster.flush()
        // The link being delivered is still undelivered; the ones before it are not.
        #expect(undelivered.withLock { $0 } == [3, 2, 1])
        #expect(broadcaster.undeliveredCount == 0)
    }

    @Test func concurrentPostsAreEachDeliveredExactlyOnce() async {
        let center = NotificationCenter()
        let recorder = NotificationRecorder(center: center)
        let broadcaster = LinkBroadcaster(center: center, startsPaused: false, events: EventReporter(handler: nil))
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<500 {
                group.addTask { broadcaster.post(self.link(n)) }
                if n == 100 { group.addTask { broadcaster.pauseDelivery() } }
                if n == 300 { group.addTask { broadcaster.resumeDelivery() } }
            }
        }
        broadcaster.resumeDelivery()
        let links = await recorder.wait(forCount: 500)
        #expect(links.count == 500)
        #expect(Set(links.map(\.requestedURL)).count == 500)
    }
}
