import Foundation

/// Posts one ``Foundation/NSNotification/Name/PIORsysWebURLResolved`` notification per resolved link, in order,
/// and holds them while delivery is paused.
///
/// On cold start, links arrive before the host has registered its observers; start paused
/// (``LinkManager/Configuration/startsPaused``) and call ``resumeDelivery()`` once they are in place: the held
/// notifications are then delivered in the order they were produced.
///
/// Observers run synchronously on the posting thread, one notification at a time and in production order:
/// ``post(_:)`` returns once the link's notification has been delivered (or held, while paused), so whoever awaits
/// a link's outcome sees its notification first. An observer may call back into the broadcaster (post, pause,
/// resume) from its callback: a notification posted from inside a callback is delivered right after the current
/// one, so every observer sees the same order.
public final class LinkBroadcaster: @unchecked Sendable {
    // @unchecked: every stored var below is read and written only with `lock` held.
    private let lock = NSRecursiveLock()
    private var paused: Bool
    private var delivering = false
    private var held: [ResolvedLink] = []
    private var heldHead = 0

    private let center: NotificationCenter
    private let sender: (any AnyObject & Sendable)?

    /// Creates a broadcaster.
    ///
    /// - Parameters:
    ///   - center: Where to post.
    ///   - sender: The notification's `object`.
    ///   - startsPaused: Hold notifications until ``resumeDelivery()``.
    public init(center: NotificationCenter = .default, sender: (any AnyObject & Sendable)? = nil, startsPaused: Bool = false) {
        self.center = center
        self.sender = sender
        self.paused = startsPaused
    }

    /// Whether delivery is paused.
    public var isPaused: Bool { locked { paused } }

    /// The number of notifications held while paused.
    public var pendingCount: Int { locked { held.count - heldHead } }

    /// Posts a link's notification now and returns once observers have run, or holds it while paused.
    ///
    /// - Parameter link: The resolved link.
    /// - Returns: `true` when it was delivered before returning, `false` when it is held until
    ///   ``resumeDelivery()`` or, posted from inside an observer's callback, queued right behind the current one.
    @discardableResult
    public func post(_ link: ResolvedLink) -> Bool {
        locked {
            held.append(link)
            guard !paused, !delivering else { return false }
            drain()
            return true
        }
    }

    /// Holds notifications from now on.
    public func pauseDelivery() {
        locked { paused = true }
    }

    /// Delivers the held notifications in order, then posts as they come.
    public func resumeDelivery() {
        locked {
            paused = false
            if !delivering { drain() }
        }
    }

    /// Delivers held notifications in order until none is left or an observer pauses; called with the lock held.
    private func drain() {
        delivering = true
        defer { delivering = false }
        while !paused, heldHead < held.count {
            let next = held[heldHead]
            heldHead += 1
            deliver(next)
        }
        if heldHead == held.count {
            held.removeAll(keepingCapacity: true)
            heldHead = 0
        }
    }

    private func deliver(_ link: ResolvedLink) {
        center.post(name: .PIORsysWebURLResolved, object: sender, userInfo: link.userInfo)
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
