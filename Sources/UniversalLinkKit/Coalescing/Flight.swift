import Foundation
import Synchronization
internal import _LinkKitLocking

/// One resolution in flight: the prepared resolution, the outcome that the activation which started it and every
/// one that joined it await, and the one task that resolves it.
///
/// Invariant: the outcome is recorded once (later ``complete(_:)`` calls are ignored); every waiter registered
/// before it is resumed with it unless it ended first on its own deadline or cancellation, and a waiter that gives
/// up leaves the resolution running for the others. The task is cancelled by ``cancel()`` whether it was attached
/// before or after, and let go of once the outcome is recorded (a completed flight is remembered for the duplicate
/// window, and its task's memory is not needed for that).
final class Flight: Sendable {
    private struct State {
        var outcome: LinkOutcome?
        var waiters: [Waiter<LinkOutcome>] = []
        var task: Task<Void, Never>?
        var isCancelled = false
    }

    /// The link, its click identity and its deadline, as the resolver prepared them.
    let resolution: LinkResolver.Resolution
    /// When the activation that started the flight happened.
    let startedAt: ContinuousClock.Instant
    private let state = Mutex(State())

    init(_ resolution: LinkResolver.Resolution, startedAt: ContinuousClock.Instant) {
        self.resolution = resolution
        self.startedAt = startedAt
    }

    /// The link as the activation that started the flight handed it in.
    var url: URL { resolution.url }

    /// Hands over the task that resolves the flight; cancelled at once when ``cancel()`` came first.
    func attach(_ task: Task<Void, Never>) {
        let cancelNow = state.withTrackedLock { state -> Bool in
            if state.outcome == nil { state.task = task }
            return state.isCancelled
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels the resolving task (now, or when it is attached): the resolution then ends at once, as cancelled.
    func cancel() {
        let task = state.withTrackedLock { state -> Task<Void, Never>? in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// Records the outcome and resumes every waiter with it; does nothing when there is one already.
    func complete(_ outcome: LinkOutcome) {
        let waiters = state.withTrackedLock { state -> [Waiter<LinkOutcome>]? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            state.task = nil
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters ?? [] { waiter.resume(returning: outcome) }
    }

    /// Waits for the outcome however long the resolution takes (it ends by its deadline), ignoring cancellation.
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
    ///   - giveUpAt: The waiter's own deadline; `nil`, or one not earlier than the resolution's, waits for the
    ///     resolution (which ends by then).
    ///   - clock: The clock of `giveUpAt`.
    /// - Returns: How the wait ended.
    func wait(until giveUpAt: ContinuousClock.Instant?, clock: LinkClock) async -> Waiter<LinkOutcome>.End {
        switch register() {
        case let .ready(outcome):
            return .value(outcome)
        case let .waiting(waiter):
            let armed = giveUpAt.flatMap { $0 < resolution.deadline.instant ? $0 : nil }
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
