import Foundation
import Synchronization
import UniversalLinkKit

/// Group `broadcast`: posting one resolution notification through `LinkBroadcaster` to 1, 10 and 100 observers,
/// until every observer has seen it (delivery happens on the broadcaster's own queue, so the time includes that hop;
/// the poster itself only queues the link).
///
/// Each observer reads the deep link out of the userInfo and counts the delivery: the cost measured is the
/// broadcaster's and `NotificationCenter`'s, not the host's. (Decoding a whole `ResolvedLink(notification:)` in
/// every observer parses three URLs: about 9 us per observer more on this machine.) A private
/// `NotificationCenter` keeps other observers of the process out of the numbers.
///
/// Next to each row, `NotificationCenter-direct`: the same userInfo posted by `NotificationCenter.post` on the
/// measuring thread to the same observers, the floor of any broadcaster built on `NotificationCenter` (its ratio
/// below 1 is how much of the row is `NotificationCenter`'s own).
enum BroadcastGroup {
    static let observerCounts = [1, 10, 100]

    /// Counts deliveries, so a broadcast that reaches nobody would be noticed.
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    static func run(report: (Measurement) -> Void) {
        let link = ResolvedLink(
            requestedURL: URL(string: "https://news.example.com/pub/acc?_ri_=X0Gzc2X%3DYQpglLjHJlTQGzdRjzd&_ei_=EOl")!,
            deepLinkURL: URL(string: "example-app://products/1234")!,
            webLinkURL: URL(string: "https://www.example.com/products/1234")!,
            isPubWeb: true)
        for count in observerCounts {
            let center = NotificationCenter()
            let counter = Counter()
            var tokens: [any NSObjectProtocol] = []
            for _ in 0..<count {
                tokens.append(center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { notification in
                    if notification.userInfo?[PIOResolvedDeeplinkURL] is String { counter.value.add(1, ordering: .relaxed) }
                })
            }
            let broadcaster = LinkBroadcaster(center: center)
            var expected = 0
            let postAndWait = {
                expected += count
                broadcaster.post(link)
                while counter.value.load(ordering: .acquiring) < expected {}
            }
            postAndWait()
            let (ns, spread) = Timer.measure(postAndWait)
            report(Measurement(
                group: "broadcast", caseName: "post_\(count)", size: count, subject: "UniversalLinkKit", nsPerOp: ns,
                spread: spread))
            // The floor: the same userInfo posted straight to the same observers on this thread, with no queue hop.
            let userInfo = link.userInfo
            let direct = {
                expected += count
                center.post(name: .PIORsysWebURLResolved, object: nil, userInfo: userInfo)
                while counter.value.load(ordering: .acquiring) < expected {}
            }
            direct()
            let (directNs, directSpread) = Timer.measure(direct)
            report(Measurement(
                group: "broadcast", caseName: "post_\(count)", size: count, subject: "NotificationCenter-direct",
                nsPerOp: directNs, spread: directSpread))
            for token in tokens { center.removeObserver(token) }
        }
    }
}
