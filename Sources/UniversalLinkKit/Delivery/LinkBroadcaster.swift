import Dispatch
import Foundation
import Synchronization
internal import _LinkKitLocking

/// Posts one ``Foundation/NSNotification/Name/PIORsysWebURLResolved`` notification per handled link, in order,
/// holds them while delivery is paused, and feeds the same links, in the same order, to every ``LinkManager/results(bufferingNewest:)``
/// subscriber.
///
/// ``post(_:)`` never waits for observers: it queues the link and returns. Notifications are delivered one at a
/// time, in production order, on the broadcaster's own serial queue, never under a lock and never on the thread of
/// a completing resolution, so a slow observer delays only the notifications behind it (every observer sees one
/// order) and never a resolution, a caller awaiting a result, or the process's concurrency pool. The queue's thread
/// delivers until nothing is left, then sleeps until the next post. An observer may post, pause, resume, or hand
/// in another link from its callback: what it causes is delivered after the current notification. ``flush()``
/// waits until everything posted so far has been delivered (held links: once delivery resumes).
final class LinkBroadcaster: Sendable {
    private struct State {
        var paused: Bool
        /// Queued links.
        var queue: [ResolvedLink] = []
        /// The next link to deliver in `queue`; the delivered prefix is dropped once the queue is empty.
        var head = 0
        /// Whether a drain is scheduled or running on the delivery queue.
        var draining = false
        var subscribers: [UInt64: AsyncStream<ResolvedLink>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        /// Links posted, and links delivered: a flush waits for the second to reach the first it saw.
        var posted = 0
        var delivered = 0
        var flushWaiters: [(upTo: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>
    private let center: NotificationCenter
    private let events: EventReporter
    private let deliveryQueue = DispatchQueue(label: "UniversalLinkKit.LinkBroadcaster", qos: .userInitiated)

    /// - Parameters:
    ///   - center: Where to post.
    ///   - startsPaused: Hold notifications until ``resumeDelivery()``.
    ///   - events: Reports `held` and `delivered`.
    init(center: NotificationCenter, startsPaused: Bool, events: EventReporter) {
        self.center = center
        self.events = events
        self.state = Mutex(State(paused: startsPaused))
    }

    /// Whether delivery is paused.
    var isPaused: Bool { state.withTrackedLock { $0.paused } }

    /// The number of notifications posted and not yet delivered to every observer: held, queued, or being delivered.
    var undeliveredCount: Int { state.withTrackedLock { $0.posted - $0.delivered } }

    /// Queues a link's notification and returns at once.
    func post(_ link: ResolvedLink) {
        if queue(link) { wake() }
    }

    /// Queues a link's notification without waking the delivery thread.
    ///
    /// - Returns: Whether the caller must call ``wake()`` (soon: the notification waits for it).
    func queue(_ link: ResolvedLink) -> Bool {
        let (scheduled, paused) = state.withTrackedLock { state in
            state.queue.append(link)
            state.posted += 1
            return (scheduleDrain(&state), state.paused)
        }
        if paused { events.emit(.held, link.requestedURL) }
        return scheduled
    }

    /// Wakes the delivery thread for the links ``queue(_:)`` queued.
    func wake() {
        deliveryQueue.async { self.drain() }
    }

    /// Holds notifications from now on.
    func pauseDelivery() {
        state.withTrackedLock { $0.paused = true }
    }

    /// Delivers the held notifications in order, then posts as they come.
    func resumeDelivery() {
        let scheduled = state.withTrackedLock { state in
            state.paused = false
            return scheduleDrain(&state)
        }
        if scheduled { deliveryQueue.async { self.drain() } }
    }

    /// Waits until every notification posted before the call has been delivered; held ones count once
    /// ``resumeDelivery()`` delivered them.
    func flush() async {
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
    ///   oldest are dropped.
    /// - Returns: The links, in delivery order; the sequence ends when ``finishSubscriptions()`` is called.
    func subscribe(bufferingNewest limit: Int) -> AsyncStream<ResolvedLink> {
        let (stream, continuation) = AsyncStream<ResolvedLink>.makeStream(bufferingPolicy: .bufferingNewest(max(1, limit)))
        let id = state.withTrackedLock { state in
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withTrackedLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every subscription's sequence (after the links already given to it).
    func finishSubscriptions() {
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
            let next = state.withTrackedLock { state -> (ResolvedLink, [AsyncStream<ResolvedLink>.Continuation])? in
                guard !state.paused, state.head < state.queue.count else {
                    state.draining = false
                    return nil
                }
                let link = state.queue[state.head]
                state.head += 1
                if state.head == state.queue.count {
                    state.queue.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                return (link, Array(state.subscribers.values))
            }
            guard let (link, subscribers) = next else { return }
            center.post(name: .PIORsysWebURLResolved, object: nil, userInfo: link.userInfo)
            for subscriber in subscribers { subscriber.yield(link) }
            events.emit(.delivered, link.requestedURL)
            let flushed = state.withTrackedLock { state in
                state.delivered += 1
                let ready = state.flushWaiters.filter { $0.upTo <= state.delivered }
                state.flushWaiters.removeAll { $0.upTo <= state.delivered }
                return ready
            }
            for waiter in flushed { waiter.continuation.resume() }
        }
    }
}
