import Synchronization
import _LinkKitLocking
import UniversalLinkKit

/// A clock whose time moves only when the test advances it, counting the sleeps it has going and the ones
/// cancelled, so a test can tell a deadline driven by this clock and a timer left behind.
final class ManualClock: Sendable {
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
    }

    private let state: Mutex<State>

    init(start: ContinuousClock.Instant = .now) {
        state = Mutex(State(now: start))
    }

    /// The clock to inject.
    var linkClock: LinkClock {
        LinkClock(now: { self.now }, sleep: { try await self.sleep(until: $0) })
    }

    var now: ContinuousClock.Instant { state.withTrackedLock { $0.now } }
    /// Sleeps waiting for the clock to reach their instant.
    var sleeperCount: Int { state.withTrackedLock { $0.sleepers.count } }
    /// Sleeps ended by cancellation.
    var cancelledSleeps: Int { state.withTrackedLock { $0.cancelledSleeps } }

    /// Moves the time on and wakes the sleeps that are due.
    func advance(by duration: Duration) {
        let due = state.withTrackedLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now += duration
            let now = state.now
            let ids = state.sleepers.filter { $0.value.until <= now }.map(\.key)
            return ids.compactMap { state.sleepers.removeValue(forKey: $0)?.continuation }
        }
        for continuation in due { continuation.resume() }
    }

    /// Waits (in real time, generously) until `condition` holds.
    func wait(until condition: @Sendable (ManualClock) -> Bool, timeout: Duration = .seconds(30)) async -> Bool {
        let limit = ContinuousClock.now + timeout
        while !condition(self) {
            guard ContinuousClock.now < limit else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    private func sleep(until instant: ContinuousClock.Instant) async throws {
        let id = state.withTrackedLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
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
                case .wait: break
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
