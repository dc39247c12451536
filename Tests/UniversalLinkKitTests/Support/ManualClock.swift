import Synchronization
import _LinkKitLocking
@testable import UniversalLinkKit

/// A clock whose time moves only when the test advances it, counting the sleeps it has going and the ones
/// cancelled, so a test can tell a deadline driven by this clock and a timer left behind.
///
/// ``wait(until:timeout:)`` is woken by the clock's own changes (a sleep starting or ending, time moving), never
/// by polling.
final class ManualClock: Clock, Sendable {
    typealias Instant = ContinuousClock.Instant
    typealias Duration = Swift.Duration

    var minimumResolution: Swift.Duration { .nanoseconds(1) }

    private struct Sleeper {
        let until: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: ContinuousClock.Instant
        var sleepers: [Int: Sleeper] = [:]
        var cancelledBeforeSleeping: Set<Int> = []
        var nextID = 0
        var cancelledSleeps = 0
        /// Tests waiting for a condition on the clock, re-checked after every change.
        var watchers: [(condition: @Sendable (ManualClock) -> Bool, waiter: Waiter<Void>)] = []
    }

    private let state: Mutex<State>
    /// The clock to inject: one value, so that everything injected with it shares its deadline scheduler.
    let linkClock: LinkClock

    init(start: ContinuousClock.Instant = .now) {
        let state = Mutex(State(now: start))
        self.state = state
        // The wrapper reaches the clock through a box set below, since `self` is not available yet.
        let box = Box()
        linkClock = LinkClock(BoxedClock(box: box))
        box.set(self)
    }

    /// Holds the clock for the closures of its `LinkClock` (set once, in `init`, before any use).
    /// The clock as the package sees it, before `self` exists.
    private struct BoxedClock: Clock {
        let box: Box
        var now: ContinuousClock.Instant { box.clock.now }
        var minimumResolution: Swift.Duration { .nanoseconds(1) }
        func sleep(until deadline: ContinuousClock.Instant, tolerance: Swift.Duration?) async throws {
            try await box.clock.sleep(until: deadline, tolerance: tolerance)
        }
    }

    private final class Box: Sendable {
        private let stored = Mutex<ManualClock?>(nil)
        func set(_ clock: ManualClock) { stored.withTrackedLock { $0 = clock } }
        var clock: ManualClock {
            guard let clock = stored.withTrackedLock({ $0 }) else { preconditionFailure("used before init ended") }
            return clock
        }
    }

    var now: ContinuousClock.Instant { state.withTrackedLock { $0.now } }
    /// Sleeps waiting for the clock to reach their instant.
    var sleeperCount: Int { state.withTrackedLock { $0.sleepers.count } }
    /// Sleeps ended by cancellation.
    var cancelledSleeps: Int { state.withTrackedLock { $0.cancelledSleeps } }
    /// Deadlines armed on the injected clock and not yet run or cancelled.
    var pendingDeadlines: Int { linkClock.scheduler.pendingCount }

    /// Moves the time on and wakes the sleeps that are due.
    func advance(by duration: Duration) {
        let due = state.withTrackedLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now += duration
            let now = state.now
            let ids = state.sleepers.filter { $0.value.until <= now }.map(\.key)
            return ids.compactMap { state.sleepers.removeValue(forKey: $0)?.continuation }
        }
        for continuation in due { continuation.resume() }
        changed()
    }

    /// Waits (in real time, generously) until `condition` holds; it is checked after every change of the clock.
    ///
    /// - Returns: Whether it held before `timeout`.
    func wait(until condition: @escaping @Sendable (ManualClock) -> Bool, timeout: Duration = .seconds(30)) async -> Bool {
        let waiter = Waiter<Void>()
        state.withTrackedLock { $0.watchers.append((condition, waiter)) }
        // Checked after registering, so a change between the two is not missed.
        changed()
        if case .value = await waiter.wait(until: .now + timeout, clock: .continuous) { return true }
        return condition(self)
    }

    /// Resumes the watchers whose condition now holds (conditions run outside the lock: they read the clock).
    private func changed() {
        let watchers = state.withTrackedLock { $0.watchers }
        let satisfied = watchers.filter { $0.condition(self) }
        guard !satisfied.isEmpty else { return }
        state.withTrackedLock { state in
            state.watchers.removeAll { watcher in satisfied.contains { $0.waiter === watcher.waiter } }
        }
        for watcher in satisfied { watcher.waiter.resume(returning: ()) }
    }

    func sleep(until instant: ContinuousClock.Instant, tolerance: Swift.Duration? = nil) async throws {
        let id = state.withTrackedLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        defer { changed() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Start { case wait, due, cancelled }
                let start = state.withTrackedLock { state -> Start in
                    if state.cancelledBeforeSleeping.remove(id) != nil {
                        state.cancelledSleeps += 1
                        return .cancelled
                    }
                    if state.now >= instant { return .due }
                    state.sleepers[id] = Sleeper(until: instant, continuation: continuation)
                    return .wait
                }
                switch start {
                case .wait: changed()
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.withTrackedLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelledBeforeSleeping.insert(id)
                    return nil
                }
                state.cancelledSleeps += 1
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
