import Foundation
import Synchronization
internal import _LinkKitLocking

/// Coalesces activations of the same click: while one is in flight, or for a window after it completed, a new
/// activation joins it instead of making a second request (and counting a second click).
///
/// Invariant: at most one entry per ``ClickIdentity``; an entry is in flight from ``claim(_:now:)`` until
/// ``complete(_:now:remember:)``, then remembered until `window` has passed. Expiry walks the completions in
/// completion order, so it never scans the table. Time is passed in, so the injected clock governs the window. The
/// registry only records: it starts nothing, under its lock or otherwise; the caller that gets
/// ``Claim/started(_:)`` starts the resolution.
final class ActivationRegistry: Sendable {
    /// What a claim got.
    enum Claim {
        /// No activation of the click was in flight or within the window: the caller resolves this new flight.
        case started(Flight)
        /// The click is in flight or within the window: the caller awaits this flight's outcome.
        case joined(Flight)
    }

    private struct Entry {
        var flight: Flight
        var completedAt: ContinuousClock.Instant?
    }

    private struct State {
        var entries: [ClickIdentity: Entry] = [:]
        /// Completed identities in completion order, for expiry.
        var completions: [(identity: ClickIdentity, at: ContinuousClock.Instant)] = []
        var head = 0
    }

    private let window: Duration
    private let state = Mutex(State())

    init(window: Duration) {
        self.window = window
    }

    /// The number of clicks remembered (in flight or within the window).
    var count: Int { state.withTrackedLock { $0.entries.count } }

    /// The flights in flight.
    var inFlight: [Flight] {
        state.withTrackedLock { state in
            state.entries.values.filter { $0.completedAt == nil }.map(\.flight)
        }
    }

    /// Joins the flight of the resolution's click in flight or within the window, or records a new one.
    ///
    /// - Parameters:
    ///   - resolution: The prepared resolution of the activation.
    ///   - now: The current instant.
    /// - Returns: The new flight to resolve, or the existing one to join.
    func claim(_ resolution: LinkResolver.Resolution, now: ContinuousClock.Instant) -> Claim {
        state.withTrackedLock { state in
            expire(&state, now: now)
            if let entry = state.entries[resolution.identity] { return .joined(entry.flight) }
            let flight = Flight(resolution, startedAt: now)
            state.entries[resolution.identity] = Entry(flight: flight)
            return .started(flight)
        }
    }

    /// Marks `identity` completed at `now`; it is forgotten once the window has passed, or at once when
    /// `remember` is `false` (an outcome that must not answer the click's duplicates).
    func complete(_ identity: ClickIdentity, now: ContinuousClock.Instant, remember: Bool) {
        state.withTrackedLock { state in
            guard let index = state.entries.index(forKey: identity), state.entries.values[index].completedAt == nil
            else { return }
            guard remember else {
                state.entries.remove(at: index)
                return
            }
            state.entries.values[index].completedAt = now
            state.completions.append((identity, now))
            expire(&state, now: now)
        }
    }

    private func expire(_ state: inout State, now: ContinuousClock.Instant) {
        let cutoff = now - window
        while state.head < state.completions.count, state.completions[state.head].at <= cutoff {
            let (identity, at) = state.completions[state.head]
            if let index = state.entries.index(forKey: identity), state.entries.values[index].completedAt == at {
                state.entries.remove(at: index)
            }
            state.head += 1
        }
        // Drops the expired prefix once it is most of the list, so the list stays proportional to the table.
        if state.head > 64, state.head * 2 > state.completions.count {
            state.completions.removeFirst(state.head)
            state.head = 0
        }
    }
}
