import Foundation
import Synchronization
internal import _LinkKitLocking
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
/// let link = await recorder.wait(for: url)
/// #expect(link?.deepLinkURL == expected)
/// ```
///
/// The waits resume when the notification arrives (no polling); they give up after their timeout.
public final class NotificationRecorder: Sendable {
    private struct Waiter {
        /// Ready when this returns `true` for the links recorded so far.
        let isSatisfied: @Sendable ([ResolvedLink]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var links: [ResolvedLink] = []
        var stopped = false
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
    }

    private final class Storage: Sendable {
        let state = Mutex(State())

        func record(_ link: ResolvedLink) {
            let ready = state.withTrackedLock { state -> [Waiter] in
                state.links.append(link)
                let links = state.links
                let ready = state.waiters.filter { $0.value.isSatisfied(links) }
                for id in ready.keys { state.waiters[id] = nil }
                return Array(ready.values)
            }
            for waiter in ready { waiter.continuation.resume() }
        }
    }

    private let center: NotificationCenter
    private let storage = Storage()
    // Written once in `init`, only read afterwards; the token itself is not `Sendable`.
    nonisolated(unsafe) private let observer: any NSObjectProtocol

    /// Starts recording.
    ///
    /// - Parameter center: The center to observe; `.default` by default.
    public init(center: NotificationCenter = .default) {
        self.center = center
        let storage = self.storage
        self.observer = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            guard let link = ResolvedLink(notification: note) else { return }
            storage.record(link)
        }
    }

    deinit {
        stop()
    }

    /// Stops recording; what was recorded stays readable.
    public func stop() {
        let first = storage.state.withTrackedLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { center.removeObserver(observer) }
    }

    /// The links recorded so far, in delivery order.
    public var links: [ResolvedLink] { storage.state.withTrackedLock { $0.links } }

    /// The number of links recorded so far.
    public var count: Int { storage.state.withTrackedLock { $0.links.count } }

    /// The links recorded for a requested URL.
    ///
    /// - Parameter url: The requested URL.
    /// - Returns: Its links, in delivery order.
    public func links(for url: URL) -> [ResolvedLink] {
        storage.state.withTrackedLock { $0.links.filter { $0.requestedURL == url } }
    }

    /// Waits until at least `count` links were recorded, or `timeout` passed.
    ///
    /// - Parameters:
    ///   - count: How many links to wait for.
    ///   - timeout: How long to wait at most. Default 20 s.
    /// - Returns: All links recorded so far.
    @discardableResult
    public func wait(forCount count: Int, timeout: Duration = .seconds(20)) async -> [ResolvedLink] {
        await wait(timeout: timeout) { $0.count >= count }
        return links
    }

    /// Waits until a link for `url` was recorded, or `timeout` passed.
    ///
    /// - Parameters:
    ///   - url: The requested URL.
    ///   - timeout: How long to wait at most. Default 20 s.
    /// - Returns: The first link recorded for `url`, or `nil` when none came in time.
    @discardableResult
    public func wait(for url: URL, timeout: Duration = .seconds(20)) async -> ResolvedLink? {
        await wait(timeout: timeout) { $0.contains { $0.requestedURL == url } }
        return links(for: url).first
    }

    private func wait(timeout: Duration, until isSatisfied: @escaping @Sendable ([ResolvedLink]) -> Bool) async {
        let id = storage.state.withTrackedLock { state in
            state.nextID += 1
            return state.nextID
        }
        let storage = self.storage
        let timer = Task {
            try? await Task.sleep(for: timeout)
            let waiter = storage.state.withTrackedLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume()
        }
        await withCheckedContinuation { continuation in
            let ready = storage.state.withTrackedLock { state in
                if isSatisfied(state.links) { return true }
                state.waiters[id] = Waiter(isSatisfied: isSatisfied, continuation: continuation)
                return false
            }
            if ready { continuation.resume() }
        }
        timer.cancel()
    }
}
