import Foundation
import Synchronization
import _LinkKitLocking

/// Posts one ``Foundation/Notification/Name/PIORsysWebURLResolved`` notification per resolved link, in order,
/// and holds them while delivery is paused.
///
/// On cold start, links arrive before the host has registered its observers; start paused
/// (``LinkManager/Configuration/startsPaused``) and call ``resumeDelivery()`` once they are in place: the held
/// notifications are then delivered in the order they were produced.
///
/// Observers run synchronously on the thread that delivers; no lock is held while they run, so an observer may
/// call back into the manager (even pause delivery).
public final class LinkBroadcaster: Sendable {
    private struct State {
        var paused: Bool
        var queue: [ResolvedLink] = []
        var head = 0
        var delivering = false
    }

    private let center: NotificationCenter
    private let sender: (any AnyObject & Sendable)?
    private let state: Mutex<State>

    /// Creates a broadcaster.
    ///
    /// - Parameters:
    ///   - center: Where to post.
    ///   - sender: The notification's `object`.
    ///   - startsPaused: Hold notifications until ``resumeDelivery()``.
    public init(center: NotificationCenter = .default, sender: (any AnyObject & Sendable)? = nil, startsPaused: Bool = false) {
        self.center = center
        self.sender = sender
        self.state = Mutex(State(paused: startsPaused))
    }

    /// Whether delivery is paused.
    public var isPaused: Bool { state.withTrackedLock { $0.paused } }

    /// The number of notifications held while paused.
    public var pendingCount: Int { state.withTrackedLock { $0.queue.count - $0.head } }

    /// Posts a link's notification now, or holds it while paused (or while an earlier one is being delivered,
    /// so order is kept).
    ///
    /// - Parameter link: The resolved link.
    public func post(_ link: ResolvedLink) {
        let deliverNow = state.withTrackedLock { state -> Bool in
            state.queue.append(link)
            guard !state.paused, !state.delivering else { return false }
            state.delivering = true
            return true
        }
        if deliverNow { drain() }
    }

    /// Holds notifications from now on.
    public func pauseDelivery() {
        state.withTrackedLock { $0.paused = true }
    }

    /// Delivers the held notifications in order, then posts as they come.
    public func resumeDelivery() {
        let deliverNow = state.withTrackedLock { state -> Bool in
            state.paused = false
            guard !state.delivering, state.head < state.queue.count else { return false }
            state.delivering = true
            return true
        }
        if deliverNow { drain() }
    }

    private func drain() {
        while let next = nextToDeliver() {
            center.post(name: .PIORsysWebURLResolved, object: sender, userInfo: next.userInfo)
        }
    }

    private func nextToDeliver() -> ResolvedLink? {
        state.withTrackedLock { state -> ResolvedLink? in
            guard !state.paused, state.head < state.queue.count else {
                state.delivering = false
                return nil
            }
            let link = state.queue[state.head]
            state.head += 1
            if state.head == state.queue.count {
                state.queue.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head > 64, state.head * 2 > state.queue.count {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            return link
        }
    }
}
