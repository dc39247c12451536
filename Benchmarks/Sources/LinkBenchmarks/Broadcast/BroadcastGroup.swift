import Foundation
import Synchronization
import UniversalLinkKit

/// Group `broadcast`: posting one notification through a `LinkManager` (an in-app hyperlink passed through, which
/// needs no request) to 1, 10 and 100 observers,
/// until every observer has seen it (delivery happens on the broadcaster's own queue, so the time includes that hop;
/// the poster itself only queues the link).
///
/// Each observer reads the deep link out of the userInfo and counts the delivery, as a host's observer would do at
/// the least; that one lookup is the host's work, about 1 us on this machine. (Decoding a whole
/// `ResolvedLink(notification:)` in every observer parses three URLs: about 9 us per observer more.) The
/// `-counting-observer` subjects of `post_1` leave it out: their observer only checks that a userInfo came, so they
/// are the broadcaster's and `NotificationCenter`'s cost alone. A private `NotificationCenter` keeps other observers
/// of the process out of the numbers.
///
/// Next to each row, `NotificationCenter-direct`: the same userInfo posted by `NotificationCenter.post` on the
/// measuring thread to the same observers, the floor of any broadcaster built on `NotificationCenter` (its ratio
/// below 1 is how much of the row is `NotificationCenter`'s own). For one observer, `hop-floor` too: the same userInfo
/// posted by a thread that does nothing but wait, spinning, for the next post, the floor of any broadcaster that
/// delivers on a thread of its own (as `LinkManager` does, so that observers never hold up a resolution). It is
/// timed in rounds with the broadcaster, so its ratio is paired (the median of the rounds' ratios), and
/// `paired_broadcaster_ns` is the broadcaster's time in those rounds: the cost of a hop between two threads moves
/// from run to run on the development machine, and both meet the same state of it.
///
/// For one observer, `poster` too: the time `post(_:)` keeps its caller (what a resolution pays per link: the link
/// queued and the delivery queue woken). Each post is timed alone; its delivery, then 20 us more (a manager's own
/// work between two links), are awaited untimed before the next, so the delivery thread has gone back to waiting as
/// at a server's usual pace. Includes two clock reads a post. At that pace the broadcaster's delivery thread is
/// still polling for the next link when it comes (it lingers up to 50 us after emptying its queue), so no wake-up is
/// paid; `poster-sparse` is the same with 200 us between posts, where the thread sleeps and every post wakes it.
enum BroadcastGroup {
    static let observerCounts = [1, 10, 100]

    /// Counts deliveries, so a broadcast that reaches nobody would be noticed.
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    /// What each observer does with a notification before it counts it.
    enum ObserverWork {
        /// Reads the deep link out of the userInfo, as a host does: one `[AnyHashable: Any]` lookup by a `String`
        /// key, about 1 us of the host's own on this machine.
        case readsDeepLink
        /// Only checks that the notification carries a userInfo: what `NotificationCenter` and the broadcaster cost
        /// with the host's work left out.
        case counts
    }

    /// The link every row posts (and `--profile broadcast-post`): an in-app hyperlink to the app, passed through
    /// with `executeRsysWebURL` on, so its notification carries a deep link and no request is made.
    static let link = ResolvedLink(
        requestedURL: URL(string: "example-app://products/1234")!, deepLinkURL: URL(string: "example-app://products/1234")!,
        isPubWeb: false)

    /// A manager that posts `link`'s notification each time it is handed `link.requestedURL`.
    static func poster(center: NotificationCenter) -> LinkManager {
        let manager = LinkManager(notificationCenter: center)
        manager.executeRsysWebURL = true
        return manager
    }

    static func run(report: (Measurement) -> Void) {
        for count in observerCounts {
            post(link, observers: count, work: .readsDeepLink, subjectSuffix: "", report: report)
        }
        post(link, observers: 1, work: .counts, subjectSuffix: "-counting-observer", report: report)
    }

    /// Reports `post_<observers>` for the broadcaster and for `NotificationCenter` alone, each observer doing `work`;
    /// for one observer reading the deep link, the poster's own rows too.
    private static func post(
        _ link: ResolvedLink, observers count: Int, work: ObserverWork, subjectSuffix: String,
        report: (Measurement) -> Void
    ) {
        let center = NotificationCenter()
        let counter = Counter()
        var tokens: [any NSObjectProtocol] = []
        for _ in 0..<count {
            tokens.append(center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { notification in
                let seen = switch work {
                case .readsDeepLink: notification.userInfo?[PIOResolvedDeeplinkURL] is String
                case .counts: notification.userInfo != nil
                }
                if seen { counter.value.add(1, ordering: .relaxed) }
            })
        }
        defer { for token in tokens { center.removeObserver(token) } }
        let broadcaster = poster(center: center)
        var expected = 0
        let postAndWait = {
            expected += count
            broadcaster.handleInAppHyperlink(link.requestedURL)
            while counter.value.load(ordering: .acquiring) < expected {}
        }
        postAndWait()
        let (ns, spread) = Timer.measure(postAndWait)
        report(Measurement(
            group: "broadcast", caseName: "post_\(count)", size: count, subject: "UniversalLinkKit" + subjectSuffix,
            nsPerOp: ns, spread: spread))
        // The floor: the same userInfo posted straight to the same observers on this thread, with no queue hop.
        let userInfo = floorUserInfo(link)
        let direct = {
            expected += count
            center.post(name: .PIORsysWebURLResolved, object: nil, userInfo: userInfo)
            while counter.value.load(ordering: .acquiring) < expected {}
        }
        direct()
        let (directNs, directSpread) = Timer.measure(direct)
        report(Measurement(
            group: "broadcast", caseName: "post_\(count)", size: count,
            subject: "NotificationCenter-direct" + subjectSuffix, nsPerOp: directNs, spread: directSpread))
        guard count == 1 else { return }
        // The hop floor, timed in rounds with the broadcaster (one batch of each per round), so that both meet the
        // same state of the machine: the cost of a hop between two threads moves from run to run (see BENCHMARKS.md).
        let hopFloor = HopFloor(center: center, link: link)
        var hopActive = false
        let paired = Timer.measureInterleaved([
            {
                if hopActive { hopFloor.park(); hopActive = false }
                postAndWait()
            },
            {
                if !hopActive { hopFloor.activate(); hopActive = true }
                expected += count
                hopFloor.post()
                while counter.value.load(ordering: .acquiring) < expected {}
            },
        ])
        // Before anything else is timed: the last round leaves the thread spinning.
        hopFloor.stop()
        report(Measurement(
            group: "broadcast", caseName: "post_1", size: 1, subject: "hop-floor" + subjectSuffix,
            nsPerOp: paired[1].ns, spread: paired[1].spread, ratio: paired[1].ratio,
            extras: [("paired_broadcaster_ns", paired[0].ns)]))
        guard work == .readsDeepLink else { return }
        let poster = handOffCost({ broadcaster.handleInAppHyperlink(link.requestedURL) }, done: counter)
        report(Measurement(
            group: "broadcast", caseName: "post_1", size: 1, subject: "poster", nsPerOp: poster.ns,
            spread: poster.spread))
        let sparse = handOffCost({ broadcaster.handleInAppHyperlink(link.requestedURL) }, done: counter, pause: .microseconds(200))
        report(Measurement(
            group: "broadcast", caseName: "post_1", size: 1, subject: "poster-sparse", nsPerOp: sparse.ns,
            spread: sparse.spread))
        let wake = threadWakeCost()
        report(Measurement(
            group: "broadcast", caseName: "post_1", size: 1, subject: "thread-wake", nsPerOp: wake.ns,
            spread: wake.spread))
    }

    /// Nanoseconds `handOff` keeps its caller (median of the batches) and the spread. Each call is timed alone; what
    /// it hands off, then `pause` more (by default 20 us, a manager's own work between two links), are awaited
    /// untimed before the next, so the receiving thread has gone back to waiting, as at a server's usual pace. `done`
    /// counts what was handed off, one per call.
    static func handOffCost(
        _ handOff: () -> Void, done: Counter, pause: Duration = .microseconds(20)
    ) -> (ns: Double, spread: Double) {
        let calls = 2_000
        var expected = done.value.load(ordering: .acquiring)
        var samples: [Double] = []
        for batch in -1..<Timer.batches {
            var inCall: Duration = .zero
            for _ in 0..<calls {
                expected += 1
                let start = ContinuousClock.now
                handOff()
                inCall += ContinuousClock.now - start
                while done.value.load(ordering: .acquiring) < expected {}
                let resume = ContinuousClock.now + pause
                while ContinuousClock.now < resume {}
            }
            if batch >= 0 { samples.append(Timer.nanoseconds(inCall) / Double(calls)) }
        }
        return Timer.summarize(samples)
    }

    /// `link`'s userInfo in `NotificationCenter`'s key type, for the floors: converted once, as the broadcaster's
    /// is (posting the `[String: Any]` form would convert it again on every post: until the seventeenth session it
    /// did, 0.3-1.2 us of the row), and with its keys inserted in the broadcaster's order, the deep link first (see
    /// `NotificationUserInfo`), so that the observer's lookup costs the floors what it costs the broadcaster.
    private static func floorUserInfo(_ link: ResolvedLink) -> [AnyHashable: Any] {
        var userInfo = [AnyHashable: Any](minimumCapacity: 5)
        if let deep = link.deepLinkURL { userInfo[PIOResolvedDeeplinkURL] = deep.absoluteString }
        if let web = link.webLinkURL { userInfo[PIOResolvedWeblinkURL] = web.absoluteString }
        userInfo[PIORequestedWebURL] = link.requestedURL.absoluteString
        userInfo[PIORequestedWebURLIsPubWebType] = link.isPubWeb
        return userInfo
    }

    /// The floor of any broadcaster that delivers on a thread of its own, timed as the `post_1` rows are: a thread
    /// that does nothing else posts a prepared userInfo each time it is asked, spinning for the next request while
    /// active, so a post is one change of a counter seen by that thread and one seen back (no queue, no lock, no
    /// wake-up). With the observer that reads the deep link it is the least any such broadcaster's row can read;
    /// `NotificationCenter-direct` leaves out the hop between the threads. Parked on a semaphore while inactive, so
    /// that it leaves the processor to the broadcaster's rounds.
    private final class HopFloor: Sendable {
        private let requested = Atomic<Int>(0)
        private let active = Atomic<Bool>(false)
        private let stopped = Atomic<Bool>(false)
        private let wake = DispatchSemaphore(value: 0)
        private let finished = DispatchSemaphore(value: 0)

        /// Starts the thread, parked; it posts ``BroadcastGroup/floorUserInfo(_:)`` of `link`.
        init(center: NotificationCenter, link: ResolvedLink) {
            Thread { [self] in
                let userInfo = floorUserInfo(link)
                var seen = 0
                while true {
                    let next = requested.load(ordering: .acquiring)
                    if seen < next {
                        seen += 1
                        center.post(name: .PIORsysWebURLResolved, object: nil, userInfo: userInfo)
                    } else if !active.load(ordering: .acquiring) {
                        if stopped.load(ordering: .acquiring) { break }
                        wake.wait()
                    }
                }
                finished.signal()
            }.start()
        }

        /// Asks for one post.
        func post() { requested.add(1, ordering: .releasing) }

        /// Wakes the thread and keeps it spinning for requests.
        func activate() {
            active.store(true, ordering: .releasing)
            wake.signal()
        }

        /// Lets the thread park once it has posted what was asked.
        func park() { active.store(false, ordering: .releasing) }

        /// Ends the thread, after what was asked.
        func stop() {
            active.store(false, ordering: .releasing)
            stopped.store(true, ordering: .releasing)
            wake.signal()
            finished.wait()
        }
    }

    /// The least a hand-off to another thread costs its caller: signalling a semaphore that a sleeping thread waits
    /// on, timed as `poster` is. Any broadcaster that keeps observers off the poster's thread pays it per post when
    /// its delivery thread sleeps (on this machine's VM, one futex wake is several microseconds).
    static func threadWakeCost() -> (ns: Double, spread: Double) {
        let wake = DispatchSemaphore(value: 0)
        let woken = Counter()
        let stopped = Counter()
        let thread = Thread {
            while true {
                wake.wait()
                if stopped.value.load(ordering: .acquiring) > 0 { return }
                woken.value.add(1, ordering: .releasing)
            }
        }
        thread.start()
        defer {
            stopped.value.store(1, ordering: .releasing)
            wake.signal()
        }
        return handOffCost({ wake.signal() }, done: woken)
    }
}
