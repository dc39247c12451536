import Foundation
import Testing
import UniversalLinkKit
import UniversalLinkKitTesting

/// Delivery as a host sees it: one notification per handled link with the `PIO...` keys, held while paused and
/// delivered in order on resume, observers that call back into the manager, slow observers, `results()`
/// subscribers, and the delivery events. Each link is an in-app hyperlink passed through (``LinkManager/executeRsysWebURL``
/// on, a custom scheme): it is notified with no request.
struct LinkManagerDeliveryTests {
    static func url(_ n: Int) -> URL { URL(string: "example-app://items/\(n)")! }

    static func link(_ n: Int) -> ResolvedLink {
        ResolvedLink(requestedURL: url(n), deepLinkURL: url(n), isPubWeb: false)
    }

    static func manager(
        center: NotificationCenter = NotificationCenter(), startsPaused: Bool = false, events: LinkEventHandler? = nil
    ) -> LinkManager {
        let manager = LinkManager(
            configuration: .init(startsPaused: startsPaused, executeRsysWebURL: true, eventHandler: events),
            transport: ScriptedTransport(), notificationCenter: center)
        return manager
    }

    @Test func eachLinkIsPostedOnceWithThePIOKeys() async throws {
        let center = NotificationCenter()
        /// What an observer reads from a userInfo, by key, with each value's type.
        struct Info: Sendable {
            var requested, deep, web: String?
            var isPubWeb: Bool?
            var errorCode: LinkError.Code?
            var hasDeep, hasWeb, hasError: Bool
        }
        let observed = Collector<Info>()
        let token = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            let info = note.userInfo ?? [:]
            observed.append(Info(
                requested: info[PIORequestedWebURL] as? String, deep: info[PIOResolvedDeeplinkURL] as? String,
                web: info[PIOResolvedWeblinkURL] as? String, isPubWeb: info[PIORequestedWebURLIsPubWebType] as? Bool,
                errorCode: (info[PIOErrorResolveWebURL] as? LinkError)?.code, hasDeep: info[PIOResolvedDeeplinkURL] != nil,
                hasWeb: info[PIOResolvedWeblinkURL] != nil, hasError: info[PIOErrorResolveWebURL] != nil))
        }
        defer { center.removeObserver(token) }
        let manager = Self.manager(center: center)
        manager.handleInAppHyperlink(Self.url(1))
        manager.handleInAppHyperlink(URL(string: "https://www.example.com/sale")!)
        manager.handleInAppHyperlink(URL(string: "javascript:alert(1)")!)
        await manager.waitUntilIdle()
        let infos = observed.all
        try #require(infos.count == 3)
        #expect(infos[0].requested == "example-app://items/1")
        #expect(infos[0].deep == "example-app://items/1")
        #expect(!infos[0].hasWeb)
        #expect(infos[0].isPubWeb == false)
        #expect(!infos[0].hasError)
        #expect(infos[1].web == "https://www.example.com/sale")
        #expect(!infos[1].hasDeep)
        #expect(infos[2].errorCode == .unsafeLink)
        #expect(Notification.Name.PIORsysWebURLResolved.rawValue == "PIORsysWebURLResolvedNotification")
        #expect([PIOResolvedDeeplinkURL, PIOResolvedWeblinkURL, PIORequestedWebURL, PIORequestedWebURLIsPubWebType, PIOErrorResolveWebURL]
            == ["PIOResolvedDeeplinkURL", "PIOResolvedWeblinkURL", "PIORequestedWebURL", "PIORequestedWebURLIsPubWebType", "PIOErrorResolveWebURL"])
        await manager.shutdown()
    }

    @Test func notificationsAreHeldWhilePausedAndDeliveredInOrderOnResume() async {
        let center = NotificationCenter()
        let manager = Self.manager(center: center, startsPaused: true)
        for n in 0..<5 { manager.handleInAppHyperlink(Self.url(n)) }
        let recorder = NotificationRecorder(center: center)  // the host becomes ready only now
        #expect(manager.isDeliveryPaused)
        manager.isDeliveryPaused = false
        await manager.waitUntilIdle()
        #expect(recorder.links == (0..<5).map(Self.link))
        manager.isDeliveryPaused = true
        manager.handleInAppHyperlink(Self.url(5))
        #expect(recorder.links.count == 5)
        manager.isDeliveryPaused = false
        await manager.waitUntilIdle()
        #expect(recorder.links.last == Self.link(5))
        await manager.shutdown()
    }

    @Test func anObserverMayHandLinksInAndPauseAndResumeFromItsCallback() async {
        let center = NotificationCenter()
        let manager = Self.manager(center: center)
        let recorder = NotificationRecorder(center: center)
        let token = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            switch ResolvedLink(notification: note)?.requestedURL {
            case Self.url(0):
                manager.handleInAppHyperlink(Self.url(1))  // delivered right after the current notification
                manager.isDeliveryPaused = true
                manager.isDeliveryPaused = false
            case Self.url(1):
                manager.isDeliveryPaused = true
            default:
                break
            }
        }
        defer { center.removeObserver(token) }
        manager.handleInAppHyperlink(Self.url(0))
        // Delivering link 0 hands in link 1; delivering link 1 pauses. Link 1 is out of the way once it was
        // delivered, and waiting for idle stops at the pause only for what is held.
        _ = await recorder.wait(for: Self.url(1))
        manager.handleInAppHyperlink(Self.url(2))  // paused by the observer: held
        #expect(manager.isDeliveryPaused)
        #expect(recorder.links == [Self.link(0), Self.link(1)])
        manager.isDeliveryPaused = false
        await manager.waitUntilIdle()
        #expect(recorder.links == [Self.link(0), Self.link(1), Self.link(2)])
        await manager.shutdown()
    }

    @Test func aSlowObserverDelaysOnlyTheNotificationsBehindItAndNeverTheEntryPoint() async throws {
        let center = NotificationCenter()
        let manager = Self.manager(center: center)
        let recorder = NotificationRecorder(center: center)
        let entered = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let token = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            if ResolvedLink(notification: note)?.requestedURL == Self.url(0) {
                entered.continuation.yield()
                // Until the test has handed in the next link. The test always signals; the hour only keeps a broken
                // build from hanging forever.
                _ = release.wait(timeout: .now() + 3600)
            }
        }
        defer { center.removeObserver(token) }
        manager.handleInAppHyperlink(Self.url(0))
        var iterator = entered.stream.makeAsyncIterator()
        _ = await iterator.next()  // the slow observer is running now
        // Observers run outside the manager's locks and off the caller's thread: this returns while it runs.
        #expect(manager.inAppHyperlink(Self.url(1)).isHandled)
        #expect(!recorder.links.contains(Self.link(1)))  // link 1 waits behind the slow observer
        release.signal()
        await manager.waitUntilIdle()
        #expect(recorder.links == [Self.link(0), Self.link(1)])  // one order for every observer
        await manager.shutdown()
    }

    @Test func subscribersSeeTheLinksDeliveredAfterTheySubscribedInOrderUntilShutdown() async {
        let manager = Self.manager()
        manager.handleInAppHyperlink(Self.url(0))
        await manager.waitUntilIdle()
        let results = manager.results()
        for n in 1...3 { manager.handleInAppHyperlink(Self.url(n)) }
        await manager.shutdown()
        var seen: [ResolvedLink] = []
        for await link in results { seen.append(link) }
        #expect(seen == [Self.link(1), Self.link(2), Self.link(3)])
    }

    @Test func aSubscriberThatFallsBehindKeepsTheNewestLinksUpToItsLimit() async {
        let manager = Self.manager()
        let results = manager.results(bufferingNewest: 2)
        for n in 0..<5 { manager.handleInAppHyperlink(Self.url(n)) }
        await manager.shutdown()
        var seen: [ResolvedLink] = []
        for await link in results { seen.append(link) }
        #expect(seen == [Self.link(3), Self.link(4)])
    }

    @Test func eventsSayWhatWasHeldReleasedAndDelivered() async {
        let events = EventLog()
        let manager = Self.manager(startsPaused: true, events: events.handler)
        manager.handleInAppHyperlink(Self.url(0))
        manager.isDeliveryPaused = false
        await manager.waitUntilIdle()
        #expect(events.kinds == [.held, .delivered])
        await manager.shutdown()
    }

    @Test func concurrentLinksAreEachDeliveredExactlyOnceAcrossPauses() async {
        let center = NotificationCenter()
        let recorder = NotificationRecorder(center: center)
        let manager = Self.manager(center: center)
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<500 {
                group.addTask { manager.handleInAppHyperlink(Self.url(n)) }
                if n == 100 { group.addTask { manager.isDeliveryPaused = true } }
                if n == 300 { group.addTask { manager.isDeliveryPaused = false } }
            }
        }
        manager.isDeliveryPaused = false
        let links = await recorder.wait(forCount: 500)
        #expect(links.count == 500)
        #expect(Set(links.map(\.requestedURL)).count == 500)
        await manager.shutdown()
    }
}
