import Foundation
import Synchronization
import Testing
@testable import UniversalLinkKit

/// The userInfo a notification carries, for every combination of present values: exactly the present keys, with
/// their values, and read back to the same link (it is built from prepared templates by position). One
/// `NotificationUserInfo` writes link after link into the dictionary of the one before: a userInfo kept by an observer
/// must not change, and a link must not inherit a key of the link before.
struct NotificationUserInfoTests {
    /// A link with the values `presence` names: 1 a deep link, 2 a web link, 4 an error, 8 the pub-web flag.
    static func link(_ presence: Int, serial: Int = 0) -> ResolvedLink {
        ResolvedLink(
            requestedURL: URL(string: "https://news.example.com/pub/acc?_ri_=\(presence)-\(serial)")!,
            deepLinkURL: presence & 1 != 0 ? URL(string: "example-app://p/\(presence)-\(serial)") : nil,
            webLinkURL: presence & 2 != 0 ? URL(string: "https://www.example.com/p/\(presence)-\(serial)") : nil,
            isPubWeb: presence & 8 != 0,
            error: presence & 4 != 0 ? LinkError(code: .timeout, message: "late \(presence)-\(serial)") : nil)
    }

    /// Whether `info` holds exactly `link`'s keys and values and reads back to `link`.
    static func carries(_ info: [AnyHashable: Any], _ link: ResolvedLink) -> Bool {
        var expected: Set<String> = [PIORequestedWebURL, PIORequestedWebURLIsPubWebType]
        if link.deepLinkURL != nil { expected.insert(PIOResolvedDeeplinkURL) }
        if link.webLinkURL != nil { expected.insert(PIOResolvedWeblinkURL) }
        if link.error != nil { expected.insert(PIOErrorResolveWebURL) }
        let notification = Notification(name: .PIORsysWebURLResolved, object: nil, userInfo: info)
        return Set(info.keys.compactMap { $0.base as? String }) == expected
            && (info[PIOErrorResolveWebURL] as? LinkError)?.message == link.error?.message
            && ResolvedLink(notification: notification) == link
    }

    @Test(arguments: 0..<16)
    func everyCombinationCarriesExactlyItsKeysAndReadsBack(_ presence: Int) throws {
        let link = Self.link(presence)
        let info = link.notificationUserInfo
        var expected: Set<String> = [PIORequestedWebURL, PIORequestedWebURLIsPubWebType]
        if presence & 1 != 0 { expected.insert(PIOResolvedDeeplinkURL) }
        if presence & 2 != 0 { expected.insert(PIOResolvedWeblinkURL) }
        if presence & 4 != 0 { expected.insert(PIOErrorResolveWebURL) }
        #expect(Set(info.keys.compactMap { $0.base as? String }) == expected)
        #expect(info[PIORequestedWebURL] as? String == link.requestedURL.absoluteString)
        #expect(info[PIORequestedWebURLIsPubWebType] as? Bool == link.isPubWeb)
        #expect(info[PIOResolvedDeeplinkURL] as? String == link.deepLinkURL?.absoluteString)
        #expect(info[PIOResolvedWeblinkURL] as? String == link.webLinkURL?.absoluteString)
        #expect((info[PIOErrorResolveWebURL] as? LinkError)?.message == link.error?.message)
        let notification = Notification(name: .PIORsysWebURLResolved, object: nil, userInfo: info)
        #expect(ResolvedLink(notification: notification) == link)
        // The template itself is never changed by a link's values.
        #expect(link.notificationUserInfo[PIORequestedWebURL] as? String == link.requestedURL.absoluteString)
    }

    @Test func linksOneAfterAnotherEachCarryExactlyTheirOwnKeysAndValues() {
        var userInfo = NotificationUserInfo()
        var generator = SplitMix(state: SplitMix.propertySeed(0x5EED_1F0))
        var presence = 0
        for serial in 0..<400 {
            // Runs of three links with the same keys (written in place), each run's keys drawn anew.
            if serial % 3 == 0 { presence = Int(generator.next() % 16) }
            let link = Self.link(presence, serial: serial)
            #expect(Self.carries(userInfo.fill(for: link), link), "link \(serial), presence \(presence)")
        }
    }

    @Test func aUserInfoAnObserverKeptNeverChangesWhenLaterLinksAreWritten() {
        var userInfo = NotificationUserInfo()
        let links = [3, 3, 3, 7, 3, 1, 1].enumerated().map { Self.link($1, serial: $0) }
        var kept: [[AnyHashable: Any]] = []
        for link in links { kept.append(userInfo.fill(for: link)) }
        for (info, link) in zip(kept, links) { #expect(Self.carries(info, link)) }
    }

    @Test func everyObserverKeepsItsOwnLinksUserInfoThroughTheBroadcaster() async {
        let center = NotificationCenter()
        let kept = Mutex<[Kept]>([])
        let token = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { notification in
            let info = Kept(userInfo: notification.userInfo ?? [:])
            kept.withLock { $0.append(info) }
        }
        defer { center.removeObserver(token) }
        let broadcaster = LinkBroadcaster(center: center)
        let links = (0..<300).map { Self.link([3, 3, 11, 7, 1, 2, 6][$0 % 7], serial: $0) }
        for link in links { broadcaster.post(link) }
        await broadcaster.flush()
        let infos = kept.withLock { $0 }
        #expect(infos.count == links.count)
        for (info, link) in zip(infos, links) { #expect(Self.carries(info.userInfo, link)) }
    }

    /// A userInfo an observer keeps: a value whose contents (strings, a flag, a `LinkError`) are all `Sendable`;
    /// only its `Any` type is not.
    struct Kept: @unchecked Sendable {
        let userInfo: [AnyHashable: Any]
    }
}
