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
    private struct Watcher {
        /// Ready when this returns `true` for the links recorded so far.
        let isSatisfied: @Sendable ([ResolvedLink]) -> Bool
        let waiter: Waiter<Void>
    }

    private struct State {
        var links: [ResolvedLink] = []
        var stopped = false
        var watchers: [Watcher] = []
    }

    private final class Storage: Sendable {
        let state = Mutex(State())

        func record(_ link: ResolvedLink) {
            let ready = state.withTrackedLock { state -> [Watcher] in
                state.links.append(link)
                let links = state.links
                let ready = state.watchers.filter { $0.isSatisfied(links) }
                state.watchers.removeAll { $0.isSatisfied(links) }
                return ready
            }
            for watcher in ready { watcher.waiter.resume(returning: ()) }
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
    package func stop() {
        let first = storage.state.withTrackedLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if first { center.removeObserver(observer) }
    }

    /// The links recorded so far, in delivery order.
    public var links: [ResolvedLink] { storage.state.withTrackedLock { $0.links } }

    /// The number of links recorded so far.
    package var count: Int { storage.state.withTrackedLock { $0.links.count } }

    /// The links recorded for a requested URL.
    ///
    /// - Parameter url: The requested URL.
    /// - Returns: Its links, in delivery order.
    package func links(for url: URL) -> [ResolvedLink] {
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
        let waiter = Waiter<Void>()
        let ready = storage.state.withTrackedLock { state -> Bool in
            if isSatisfied(state.links) { return true }
            state.watchers.append(Watcher(isSatisfied: isSatisfied, waiter: waiter))
            return false
        }
        if ready { return }
        // The package's one waiter: registered above, before its deadline is armed, so no link is missed.
        if case .value = await waiter.wait(until: .now + timeout, clock: .continuous) { return }
        storage.state.withTrackedLock { state in state.watchers.removeAll { $0.waiter === waiter } }
    }
}
