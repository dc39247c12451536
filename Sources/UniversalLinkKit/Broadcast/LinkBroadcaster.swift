import Dispatch
import Foundation
import Synchronization
internal import _LinkKitLocking

/// Posts one ``Foundation/NSNotification/Name/PIORsysWebURLResolved`` notification per resolved link, in order,
/// holds them while delivery is paused, and feeds the same links, in the same order, to every ``LinkResults``
/// subscriber.
///
/// On cold start, links arrive before the host has registered its observers; start paused
/// (``LinkManager/Configuration/startsPaused``) and call ``resumeDelivery()`` once they are in place: the held
/// notifications are then delivered in the order they were produced.
///
/// ``post(_:)`` never waits for observers: it queues the link and returns. Notifications are delivered one at a
/// time, in production order, on the broadcaster's own serial queue, never under a lock and never on the thread of
/// a completing resolution, so a slow observer delays only the notifications behind it (every observer sees one
/// order) and never a resolution, a caller awaiting a result, or the process's concurrency pool. An observer may
/// post, pause, resume, or handle another link from its callback: what it posts is delivered after the current
/// notification. ``flush()`` waits until everything posted so far has been delivered (or is held).
///
/// Having emptied its queue, the delivery thread polls for the next link for up to 50 µs before it sleeps, while
/// links come that close together: a post then costs its caller about 0.2 µs instead of the 2-3 µs of waking a
/// sleeping thread. When links are sparse, it stops doing so after one linger that caught nothing (see
/// `DeliveryLinger`).
public final class LinkBroadcaster: Sendable {
    private struct Queued {
        var link: ResolvedLink
        var wasHeld: Bool
    }

    private struct State {
        init(paused: Bool, linger: DeliveryLinger) {
            self.paused = paused
            self.linger = linger
        }

        var paused: Bool
        var queue: [Queued] = []
        var head = 0
        /// Whether a drain is scheduled or running on `deliveryQueue`.
        var draining = false
        var subscribers: [UInt64: AsyncStream<ResolvedLink>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        /// Number of links posted, and of links delivered: `flush` waits for the second to reach the first.
        var posted = 0
        var delivered = 0
        var flushWaiters: [FlushWaiter] = []
        /// Whether the delivery thread polls for the next link before it sleeps.
        var linger: DeliveryLinger
        /// The drains handed to `deliveryQueue`, each of which wakes a thread: for tests.
        var drainsScheduled = 0

        /// Counts one more link delivered; returns the flushes it completes.
        mutating func recordDelivery() -> [FlushWaiter] {
            delivered += 1
            guard !flushWaiters.isEmpty else { return [] }
            let ready = flushWaiters.filter { $0.upTo <= delivered }
            flushWaiters.removeAll { $0.upTo <= delivered }
            return ready
        }
    }

    /// A ``flush()`` waiting for the links posted before it (`upTo`) to be delivered.
    private typealias FlushWaiter = (upTo: Int, continuation: CheckedContinuation<Void, Never>)

    /// What a drain does next.
    private enum DrainStep {
        case deliver(ResolvedLink, subscribers: [AsyncStream<ResolvedLink>.Continuation])
        /// Poll for a post or a resume for `window`.
        case linger(window: Duration)
        case sleep
    }

    private let state: Mutex<State>
    private let center: NotificationCenter
    private let sender: (any AnyObject & Sendable)?
    private let events: LinkEventHandler?
    private let deliveryQueue = DispatchQueue(label: "UniversalLinkKit.LinkBroadcaster", qos: .userInitiated)
    /// Counts the posts and resumes that found a drain running: what a lingering drain polls, without the lock.
    private let signals = Atomic<Int>(0)

    /// Creates a broadcaster.
    ///
    /// - Parameters:
    ///   - center: Where to post.
    ///   - sender: The notification's `object`.
    ///   - startsPaused: Hold notifications until ``resumeDelivery()``.
    ///   - events: Receives ``LinkEvent/Kind/delivered``, ``LinkEvent/Kind/held`` and ``LinkEvent/Kind/released``.
    public convenience init(
        center: NotificationCenter = .default,
        sender: (any AnyObject & Sendable)? = nil,
        startsPaused: Bool = false,
        events: LinkEventHandler? = nil
    ) {
        self.init(center: center, sender: sender, startsPaused: startsPaused, events: events, linger: DeliveryLinger())
    }

    /// Creates a broadcaster whose delivery thread lingers as `linger` says.
    init(
        center: NotificationCenter, sender: (any AnyObject & Sendable)?, startsPaused: Bool, events: LinkEventHandler?,
        linger: DeliveryLinger
    ) {
        self.center = center
        self.sender = sender
        self.events = events
        self.state = Mutex(State(paused: startsPaused, linger: linger))
    }

    /// The number of drains scheduled so far, each a wake-up of the delivery thread.
    var drainsScheduled: Int { state.withTrackedLock { $0.drainsScheduled } }

    /// Whether delivery is paused.
    public var isPaused: Bool { state.withTrackedLock { $0.paused } }

    /// The number of notifications posted and not yet delivered (held while paused, or queued behind a slow
    /// observer).
    public var pendingCount: Int { state.withTrackedLock { $0.queue.count - $0.head } }

    /// The number of notifications posted and not yet delivered to every observer: ``pendingCount`` plus the one
    /// being delivered, if any.
    var undeliveredCount: Int { state.withTrackedLock { $0.posted - $0.delivered } }

    /// Queues a link's notification and returns at once.
    ///
    /// - Parameter link: The resolved link.
    /// - Returns: `true` when the notification will be delivered as soon as the ones before it are, `false` when it
    ///   is held until ``resumeDelivery()``.
    @discardableResult
    public func post(_ link: ResolvedLink) -> Bool {
        let (scheduled, paused) = state.withTrackedLock { state in
            state.queue.append(Queued(link: link, wasHeld: state.paused))
            state.posted += 1
            return (scheduleDrain(&state), state.paused)
        }
        if paused { events?(LinkEvent(.held, url: link.requestedURL)) }
        if scheduled { deliveryQueue.async { self.drain() } } else { signals.add(1, ordering: .releasing) }
        return !paused
    }

    /// Holds notifications from now on.
    public func pauseDelivery() {
        state.withTrackedLock { $0.paused = true }
    }

    /// Delivers the held notifications in order, then posts as they come.
    public func resumeDelivery() {
        let (scheduled, released) = state.withTrackedLock { state in
            let wasPaused = state.paused
            state.paused = false
            let released = wasPaused ? state.queue[state.head...].filter(\.wasHeld).map(\.link.requestedURL) : []
            return (scheduleDrain(&state), released)
        }
        if let events {
            for url in released { events(LinkEvent(.released, url: url)) }
        }
        if scheduled { deliveryQueue.async { self.drain() } } else { signals.add(1, ordering: .releasing) }
    }

    /// Waits until every notification posted before the call has been delivered; returns at once for the ones that
    /// are held while delivery is paused only after ``resumeDelivery()`` delivered them.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withTrackedLock { state in
                guard state.delivered < state.posted else { return true }
                state.flushWaiters.append((state.posted, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Subscribes to the links delivered from now on.
    ///
    /// - Parameter limit: How many undelivered links the subscription keeps for a slow consumer; past that the
    ///   oldest are dropped. Default 1 024.
    /// - Returns: The links, in delivery order; the sequence ends when ``finishSubscriptions()`` is called.
    public func subscribe(bufferingNewest limit: Int = 1024) -> LinkResults {
        let (stream, continuation) = AsyncStream<ResolvedLink>.makeStream(bufferingPolicy: .bufferingNewest(max(1, limit)))
        let id = state.withTrackedLock { state in
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withTrackedLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return LinkResults(stream: stream)
    }

    /// Ends every subscription's sequence (after the links already given to it).
    public func finishSubscriptions() {
        let subscribers = state.withTrackedLock { state in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    /// Marks a drain as scheduled when one is needed and none is; called with the lock held.
    private func scheduleDrain(_ state: inout State) -> Bool {
        guard !state.paused, !state.draining, state.head < state.queue.count else { return false }
        state.draining = true
        state.drainsScheduled += 1
        // The pace is the time from the thread's sleep to this link, not to its wake-up, which comes later.
        state.linger.woke(at: ContinuousClock.now)
        return true
    }

    /// Delivers queued notifications one by one, outside the lock, until none is left or delivery is paused; then
    /// lingers once, when that is worth it, before the thread sleeps.
    ///
    /// The thread takes the lock once per link: the look for the next link also counts the one just delivered, and
    /// the flushes it completes are resumed before the next notification is posted.
    private func drain() {
        var lingered = false
        var delivered = false
        var userInfo = NotificationUserInfo()
        while true {
            let seen = signals.load(ordering: .acquiring)
            let (step, flushed) = state.withTrackedLock { state -> (DrainStep, [FlushWaiter]) in
                let flushed = delivered ? state.recordDelivery() : []
                guard !state.paused, state.head < state.queue.count else {
                    if !lingered, !state.paused, state.linger.lingers {
                        return (.linger(window: state.linger.window), flushed)
                    }
                    state.draining = false
                    state.linger.sleeps(at: ContinuousClock.now)
                    return (.sleep, flushed)
                }
                let next = state.queue[state.head].link
                state.head += 1
                if state.head == state.queue.count {
                    state.queue.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                let subscribers = state.subscribers.isEmpty ? [] : Array(state.subscribers.values)
                return (.deliver(next, subscribers: subscribers), flushed)
            }
            delivered = false
            for waiter in flushed { waiter.continuation.resume() }
            switch step {
            case .sleep:
                return
            case let .linger(window):
                lingered = true
                // Still `draining`: a post or a resume meanwhile bumps `signals` instead of scheduling a drain.
                if !signalled(after: seen, within: window) { state.withTrackedLock { $0.linger.lingered(caught: false) } }
            case let .deliver(link, subscribers):
                lingered = false
                deliver(link, to: subscribers, userInfo: &userInfo)
                delivered = true
            }
        }
    }

    /// Polls `signals` until it passes `seen` (`true`) or `window` ends (`false`).
    private func signalled(after seen: Int, within window: Duration) -> Bool {
        let end = ContinuousClock.now + window
        while signals.load(ordering: .acquiring) == seen {
            if ContinuousClock.now >= end { return false }
        }
        return true
    }

    /// Posts one link's notification, its userInfo written into `userInfo`'s dictionary, and hands the link to the
    /// subscribers.
    private func deliver(
        _ link: ResolvedLink, to subscribers: [AsyncStream<ResolvedLink>.Continuation],
        userInfo: inout NotificationUserInfo
    ) {
        center.post(name: .PIORsysWebURLResolved, object: sender, userInfo: userInfo.fill(for: link))
        for subscriber in subscribers { subscriber.yield(link) }
        events?(LinkEvent(.delivered, url: link.requestedURL))
    }
}
