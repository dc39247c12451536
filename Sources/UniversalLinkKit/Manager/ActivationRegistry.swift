import Synchronization
internal import _LinkKitLocking

/// Coalesces activations of the same click: while one is in flight, or for a window after it completed, a new
/// activation joins it instead of making a second request (and counting a second click).
///
/// Invariant: at most one entry per key; an entry is in flight from ``claim(_:now:deadline:start:)`` until
/// ``complete(_:now:)``, then remembered until `window` has passed. Time is passed in, so the injected clock
/// governs the window.
final class ActivationRegistry: Sendable {
    /// One resolution: its task, and the outcome its activations await.
    struct Resolution: Sendable {
        let task: Task<Void, Never>
        let pending: PendingOutcome
    }

    private struct Entry {
        var resolution: Resolution
        var completedAt: ContinuousClock.Instant?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Completed keys in completion order, for expiry without scanning every entry.
        var completions: [(key: String, at: ContinuousClock.Instant)] = []
        var head = 0
        var inFlight = 0
    }

    private let window: Duration
    private let state = Mutex(State())

    init(window: Duration) {
        self.window = window
    }

    /// The number of URLs remembered (in flight or within the window), for tests and diagnostics.
    var count: Int { state.withTrackedLock { $0.entries.count } }

    /// The number of resolutions in flight.
    var inFlightCount: Int { state.withTrackedLock { $0.inFlight } }

    /// The resolutions in flight.
    var inFlight: [Resolution] {
        state.withTrackedLock { state in
            state.entries.values.filter { $0.completedAt == nil }.map(\.resolution)
        }
    }

    /// Joins the resolution of `key` in flight or within the window, or starts a new one with `start`.
    ///
    /// - Parameters:
    ///   - key: The click's identity.
    ///   - now: The current instant.
    ///   - deadline: The new resolution's deadline.
    ///   - start: Starts the resolution, which must call ``complete(_:now:)`` and complete the pending outcome.
    /// - Returns: The resolution, and whether it was an existing one.
    func claim(
        _ key: String,
        now: ContinuousClock.Instant,
        deadline: ContinuousClock.Instant,
        start: @Sendable (PendingOutcome) -> Task<Void, Never>
    ) -> (resolution: Resolution, isDuplicate: Bool) {
        state.withTrackedLock { state in
            expire(&state, now: now)
            if let entry = state.entries[key] {
                return (entry.resolution, true)
            }
            let pending = PendingOutcome(deadline: deadline)
            let resolution = Resolution(task: start(pending), pending: pending)
            state.entries[key] = Entry(resolution: resolution, completedAt: nil)
            state.inFlight += 1
            return (resolution, false)
        }
    }

    /// Marks `key` completed at `now`; it is forgotten once the window has passed.
    func complete(_ key: String, now: ContinuousClock.Instant) {
        state.withTrackedLock { state in
            if state.entries[key]?.completedAt == nil { state.inFlight -= 1 }
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
