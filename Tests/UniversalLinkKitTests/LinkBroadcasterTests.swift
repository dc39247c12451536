import Foundation
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

struct LinkBroadcasterTests {
    func link(_ n: Int) -> ResolvedLink {
        ResolvedLink(requestedURL: URL(string: "https://news.example.com/pub/acc?n=\(n)")!,
                     webLinkURL: URL(string: "https://www.example.com/\(n)"), isPubWeb: true)
    }

    @Test func postsOneNotificationPerLinkWithThePIOKeys() throws {
        let center = NotificationCenter()
        let recorder = NotificationRecorder(center: center)
        let broadcaster = LinkBroadcaster(center: center)
        var withError = link(1)
        withError.deepLinkURL = URL(string: "example-app://x")
        withError.error = LinkError(code: .unsafeLink, message: "m")
        broadcaster.post(withError)
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

    @Test func holdsNotificationsWhilePausedAndDeliversThemInOrderOnResume() {
        let center = NotificationCenter()
        let broadcaster = LinkBroadcaster(center: center, startsPaused: true)
        for n in 0..<5 { broadcaster.post(link(n)) }
        let recorder = NotificationRecorder(center: center)  // the host becomes ready only now
        #expect(recorder.count == 0)
        #expect(broadcaster.pendingCount == 5)
        broadcaster.resumeDelivery()
        #expect(recorder.links == (0..<5).map(link))
        broadcaster.pauseDelivery()
        broadcaster.post(link(5))
        #expect(recorder.count == 5)
        broadcaster.resumeDelivery()
        #expect(recorder.links.last == link(5))
    }

    @Test func anObserverMayPostPauseAndResumeFromInsideItsCallbackWithoutDeadlock() {
        let center = NotificationCenter()
        let broadcaster = LinkBroadcaster(center: center)
        let recorder = NotificationRecorder(center: center)
        let token = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            if ResolvedLink(notification: note)?.requestedURL.query == "n=0" {
                #expect(!broadcaster.post(self.link(1)))  // queued right behind the current notification
            }
            if ResolvedLink(notification: note)?.requestedURL.query == "n=1" {
                broadcaster.pauseDelivery()
            }
        }
        defer { center.removeObserver(token) }
        #expect(broadcaster.post(link(0)))
        #expect(recorder.links == [link(0), link(1)])  // every observer saw 0 before 1
        #expect(!broadcaster.post(link(2)))  // paused by the observer: held
        #expect(recorder.links == [link(0), link(1)])
        broadcaster.resumeDelivery()
        #expect(recorder.links == [link(0), link(1), link(2)])
    }

    @Test func postReturnsOnlyAfterItsNotificationWasDeliveredEvenBehindASlowObserver() async throws {
        let center = NotificationCenter()
        let broadcaster = LinkBroadcaster(center: center)
        let recorder = NotificationRecorder(center: center)
        let token = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            if ResolvedLink(notification: note)?.requestedURL.query == "n=0" { Thread.sleep(forTimeInterval: 0.3) }
        }
        defer { center.removeObserver(token) }
        let slow = Task.detached { broadcaster.post(self.link(0)) }
        try await Task.sleep(for: .milliseconds(50))  // the slow delivery is under way
        #expect(broadcaster.post(link(1)))
        #expect(recorder.links.contains(link(1)))
        #expect(recorder.links == [link(0), link(1)])
        _ = await slow.value
    }

    @Test func concurrentPostsAreEachDeliveredExactlyOnce() async {
        let center = NotificationCenter()
        let recorder = NotificationRecorder(center: center)
        let broadcaster = LinkBroadcaster(center: center)
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
