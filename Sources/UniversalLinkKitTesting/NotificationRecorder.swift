import Foundation
import Synchronization
import _LinkKitLocking
import UniversalLinkKit

/// Records every `ResolvedLink` broadcast on a `NotificationCenter`, for assertions.
///
/// Start it before handing anything to the manager, so no notification is missed:
///
/// ```swift
/// let center = NotificationCenter()
/// let recorder = NotificationRecorder(center: center)
/// let manager = LinkManager(transport: transport, notificationCenter: center)
/// manager.continueUserActivity(UserActivity(browsingWeb: url))
/// let links = await recorder.wait(forCount: 1)
/// #expect(links.first?.deepLinkURL == expected)
/// ```
public final class NotificationRecorder: Sendable {
    private final class Storage: Sendable {
        let links = Mutex<[ResolvedLink]>([])
        let stopped = Mutex(false)
    }

    private let center: NotificationCenter
    private let storage = Storage()
    // Written once in `init`, only read afterwards; the token itself is not `Sendable`.
    nonisolated(unsafe) private let observer: any NSObjectProtocol

    /// Starts recording.
    ///
    /// - Parameter center: The center to observe.
    public init(center: NotificationCenter = .default) {
        self.center = center
        let storage = self.storage
        self.observer = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            guard let link = ResolvedLink(notification: note) else { return }
            storage.links.withTrackedLock { $0.append(link) }
        }
    }

    deinit {
        stop()
    }

    /// Stops recording; idempotent.
    public func stop() {
        let first = storage.stopped.withTrackedLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        if first { center.removeObserver(observer) }
    }

    /// The links broadcast so far, in order.
    public var links: [ResolvedLink] { storage.links.withTrackedLock { $0 } }

    /// The number of notifications so far.
    public var count: Int { storage.links.withTrackedLock { $0.count } }

    /// The links broadcast for one requested URL.
    ///
    /// - Parameter url: The requested URL.
    /// - Returns: Every link whose `ResolvedLink.requestedURL` is `url`, in order.
    public func links(for url: URL) -> [ResolvedLink] {
        storage.links.withTrackedLock { $0.filter { $0.requestedURL == url } }
    }

    /// Waits until at least `count` notifications arrived, or `timeout` passed.
    ///
    /// - Parameters:
    ///   - count: How many to wait for.
    ///   - timeout: How long to wait at most.
    /// - Returns: The links recorded by then (fewer than `count` when the time ran out).
    @discardableResult
    public func wait(forCount count: Int, timeout: Duration = .seconds(20)) async -> [ResolvedLink] {
        let deadline = ContinuousClock.now + timeout
        while self.count < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return links
    }
}
