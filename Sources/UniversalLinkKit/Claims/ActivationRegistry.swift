import Foundation
import Synchronization
internal import _LinkKitLocking

/// Coalesces activations of the same click: while one is in flight, or for a window after it completed, a new
/// activation joins it instead of making a second request (and counting a second click).
///
/// Invariant: at most one entry per ``ClickIdentity``; an entry is in flight from ``claim(_:url:now:deadline:)``
/// until ``complete(_:now:)``, then remembered until `window` has passed. Time is passed in, so the injected clock
/// governs the window. The registry only records: it starts nothing, under its lock or otherwise; the caller that
/// gets ``Claim/started(_:)`` starts the resolution.
final class ActivationRegistry: Sendable {
    /// What a claim got.
    enum Claim {
        /// No activation of the click was in flight or within the window: the caller resolves this new flight.
        case started(Flight)
        /// The click is in flight or within the window: the caller awaits this flight's outcome.
        case joined(Flight)
    }

    /// Times are kept as their distance from `origin`: `Duration` is a frozen type and `ContinuousClock.Instant`
    /// a resilient one, which made every move of an entry in the dictionary go through its value witnesses.
    private struct Entry {
        var flight: Flight
        var completedAt: Duration?
    }

    private struct State {
        var entries: [ClickIdentity: Entry] = [:]
        /// Completed identities in completion order, for expiry without scanning every entry.
        var completions: [(identity: ClickIdentity, at: Duration)] = []
        var head = 0
        var inFlight = 0
    }

    private let window: Duration
    private let state = Mutex(State())
    /// The instant times are measured from; any fixed instant orders them the same way.
    private let origin = ContinuousClock.Instant.now

    init(window: Duration) {
        self.window = window
    }

    /// The number of clicks remembered (in flight or within the window), for tests and diagnostics.
    var count: Int { state.withTrackedLock { $0.entries.count } }

    /// The number of flights, in flight or remembered, that keep their task's handle, for tests.
    var flightsHoldingTasks: Int {
        let flights = state.withTrackedLock { $0.entries.values.map(\.flight) }
        return flights.filter(\.holdsTask).count
    }

    /// The number of flights in flight.
    var inFlightCount: Int { state.withTrackedLock { $0.inFlight } }

    /// The flights in flight.
    var inFlight: [Flight] {
        state.withTrackedLock { state in
            state.entries.values.filter { $0.completedAt == nil }.map(\.flight)
        }
    }

    /// Joins the flight of `identity` in flight or within the window, or records a new one.
    ///
    /// - Parameters:
    ///   - identity: The click.
    ///   - url: The link as handed in.
    ///   - now: The current instant.
    ///   - deadline: A new flight's deadline.
    /// - Returns: The new flight to resolve, or the existing one to join.
    func claim(
        _ identity: ClickIdentity, url: URL, now: ContinuousClock.Instant, deadline: ContinuousClock.Instant
    ) -> Claim {
        let offset = now - origin
        return state.withTrackedLock { state in
            expire(&state, now: offset)
            if let entry = state.entries[identity] { return .joined(entry.flight) }
            let flight = Flight(identity: identity, url: url, startedAt: now, deadline: deadline)
            state.entries[identity] = Entry(flight: flight)
            state.inFlight += 1
            return .started(flight)
        }
    }

    /// Marks `identity` completed at `now`; it is forgotten once the window has passed, or at once when
    /// `remember` is `false` (an outcome that must not answer the click's duplicates).
    func complete(_ identity: ClickIdentity, now: ContinuousClock.Instant, remember: Bool = true) {
        let now = now - origin
        state.withTrackedLock { state in
            guard let entry = state.entries[identity], entry.completedAt == nil else { return }
            state.inFlight -= 1
            guard remember else {
                state.entries.removeValue(forKey: identity)
                return
            }
            state.entries[identity]?.completedAt = now
            state.completions.append((identity, now))
            expire(&state, now: now)
        }
    }

    private func expire(_ state: inout State, now: Duration) {
        while state.head < state.completions.count, state.completions[state.head].at + window <= now {
            let (identity, at) = state.completions[state.head]
            if state.entries[identity]?.completedAt == at {
                state.entries.removeValue(forKey: identity)
            }
            state.head += 1
        }
        if state.head > 256, state.head * 2 > state.completions.count {
            state.completions.removeFirst(state.head)
            state.head = 0
        }
    }
}
