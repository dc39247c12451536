import Synchronization
internal import _LinkKitLocking

/// The outcome of one resolution, awaited by the activation that started it and by every one that joined it.
///
/// Invariant: ``complete(_:)`` is called once (later calls are ignored); every waiter registered before it is
/// resumed with the outcome unless it ended first on its own deadline or cancellation, and a waiter that gives up
/// leaves the resolution running for the others. Each wait is one ``Waiter``: a caller whose deadline is not
/// earlier than the resolution's arms nothing (the resolution ends by then).
final class PendingOutcome: Sendable {
    private struct State {
        var outcome: LinkOutcome?
        var waiters: [Waiter<LinkOutcome>] = []
    }

    /// When the resolution itself ends at the latest.
    let deadline: ContinuousClock.Instant
    private let state = Mutex(State())

    init(deadline: ContinuousClock.Instant) {
        self.deadline = deadline
    }

    /// The outcome, once there is one.
    var outcome: LinkOutcome? { state.withTrackedLock { $0.outcome } }

    /// Records the outcome and resumes every waiter with it; does nothing when there is one already.
    ///
    /// - Returns: Whether this call recorded the outcome.
    @discardableResult
    func complete(_ outcome: LinkOutcome) -> Bool {
        let waiters = state.withTrackedLock { state -> [Waiter<LinkOutcome>]? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: outcome) }
        return true
    }

    /// Waits for the outcome however long the resolution takes (it ends by ``deadline``), ignoring cancellation.
    var value: LinkOutcome {
        get async {
            switch register() {
            case let .ready(outcome): return outcome
            case let .waiting(waiter): return await waiter.value
            }
        }
    }

    /// Waits for the outcome until `giveUpAt` on `clock`, or until the calling task is cancelled.
    ///
    /// - Parameters:
    ///   - giveUpAt: The waiter's own deadline; `nil`, or one not earlier than ``deadline``, waits for the
    ///     resolution.
    ///   - clock: The clock of `giveUpAt`.
    /// - Returns: How the wait ended.
    func wait(until giveUpAt: ContinuousClock.Instant?, clock: LinkClock) async -> Waiter<LinkOutcome>.End {
        switch register() {
        case let .ready(outcome):
            return .value(outcome)
        case let .waiting(waiter):
            let armed = giveUpAt.flatMap { $0 < deadline ? $0 : nil }
            return await waiter.wait(until: armed, clock: clock)
        }
    }

    private enum Registration {
        case ready(LinkOutcome)
        case waiting(Waiter<LinkOutcome>)
    }

    /// The outcome when there is one, else a new waiter, registered.
    private func register() -> Registration {
        state.withTrackedLock { state -> Registration in
            if let outcome = state.outcome { return .ready(outcome) }
            let waiter = Waiter<LinkOutcome>()
            state.waiters.append(waiter)
            return .waiting(waiter)
        }
    }
}
