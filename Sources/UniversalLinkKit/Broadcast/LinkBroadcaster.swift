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
public final class LinkBroadcaster: Sendable {
    private struct Queued {
        var link: ResolvedLink
        var wasHeld: Bool
    }

    private struct State {
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
        var flushWaiters: [(upTo: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>
    private let center: NotificationCenter
    private let sender: (any AnyObject & Sendable)?
    private let events: LinkEventHandler?
    private let deliveryQueue = DispatchQueue(label: "UniversalLinkKit.LinkBroadcaster", qos: .userInitiated)

    /// Creates a broadcaster.
    ///
    /// - Parameters:
    ///   - center: Where to post.
    ///   - sender: The notification's `object`.
    ///   - startsPaused: Hold notifications until ``resumeDelivery()``.
    ///   - events: Receives ``LinkEvent/Kind/delivered``, ``LinkEvent/Kind/held`` and ``LinkEvent/Kind/released``.
    public init(
        center: NotificationCenter = .default,
        sender: (any AnyObject & Sendable)? = nil,
        startsPaused: Bool = false,
        events: LinkEventHandler? = nil
    ) {
        self.center = center
        self.sender = sender
        self.events = events
        self.state = Mutex(State(paused: startsPaused))
    }

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
        if scheduled { deliveryQueue.async { self.drain() } }
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
        if scheduled { deliveryQueue.async { self.drain() } }
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
        return true
    }

    /// Delivers queued notifications one by one, outside the lock, until none is left or delivery is paused.
    private func drain() {
        while true {
            let next: (link: ResolvedLink, subscribers: [AsyncStream<ResolvedLink>.Continuation])? =
                state.withTrackedLock { state in
                    guard !state.paused, state.head < state.queue.count else {
                        state.draining = false
                        return nil
                    }
                    let next = state.queue[state.head].link
                    state.head += 1
                    if state.head == state.queue.count {
                        state.queue.removeAll(keepingCapacity: true)
                        state.head = 0
                    }
                    return (next, Array(state.subscribers.values))
                }
            guard let next else { return }
            center.post(name: .PIORsysWebURLResolved, object: sender, userInfo: next.link.notificationUserInfo)
            for subscriber in next.subscribers { subscriber.yield(next.link) }
            events?(LinkEvent(.delivered, url: next.link.requestedURL))
            let flushed = state.withTrackedLock { state in
                state.delivered += 1
                let delivered = state.delivered
                let ready = state.flushWaiters.filter { $0.upTo <= delivered }
                state.flushWaiters.removeAll { $0.upTo <= delivered }
                return ready
            }
            for waiter in flushed { waiter.continuation.resume() }
        }
    }
}
