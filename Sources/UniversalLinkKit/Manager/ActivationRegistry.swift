import Synchronization
import _LinkKitLocking

/// Coalesces activations of the same URL: while one is in flight, or for a window after it completed, a new
/// activation joins it instead of making a second request (and counting a second click).
final class ActivationRegistry: Sendable {
    private struct Entry {
        var task: Task<LinkOutcome, Never>
        var completedAt: ContinuousClock.Instant?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Completed keys in completion order, for expiry without scanning every entry.
        var completions: [(key: String, at: ContinuousClock.Instant)] = []
        var head = 0
    }

    private let window: Duration
    private let state = Mutex(State())

    init(window: Duration) {
        self.window = window
    }

    /// The number of URLs remembered (in flight or within the window), for tests and diagnostics.
    var count: Int { state.withTrackedLock { $0.entries.count } }

    /// Joins the activation of `key` in flight or within the window, or starts a new one with `start`.
    ///
    /// - Returns: The task, and whether it was an existing one.
    func claim(_ key: String, now: ContinuousClock.Instant, start: () -> Task<LinkOutcome, Never>) -> (task: Task<LinkOutcome, Never>, isDuplicate: Bool) {
        state.withTrackedLock { state in
            expire(&state, now: now)
            if let entry = state.entries[key] {
                return (entry.task, true)
            }
            let task = start()
            state.entries[key] = Entry(task: task, completedAt: nil)
            return (task, false)
        }
    }

    /// Marks `key` completed at `now`; it is forgotten once the window has passed.
    func complete(_ key: String, now: ContinuousClock.Instant) {
        state.withTrackedLock { state in
            state.entries[key]?.completedAt = now
            state.completions.append((key, now))
            expire(&state, now: now)
        }
    }

    private func expire(_ state: inout State, now: ContinuousClock.Instant) {
        while state.head < state.completions.count, state.completions[state.head].at + window <= now {
            let (key, at) = state.completions[state.head]
            if state.entries[key]?.completedAt == at {
                state.entries.removeValue(forKey: key)
            }
            state.head += 1
        }
        if state.head > 256, state.head * 2 > state.completions.count {
            state.completions.removeFirst(state.head)
            state.head = 0
        }
    }
}
