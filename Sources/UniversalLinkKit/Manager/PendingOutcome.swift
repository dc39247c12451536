import Foundation
import Synchronization
internal import _LinkKitLocking

/// The outcome of one resolution, awaited by the activation that started it and by every one that joined it.
///
/// Invariant: ``complete(_:)`` is called exactly once; every waiter registered before it is resumed exactly once,
/// with the outcome, or earlier with `cancelled` (its task was cancelled) or `timeout` (its own deadline passed).
/// A waiter that gives up leaves the resolution running for the others. Waiting allocates one continuation, plus one
/// timer task only when the waiter's deadline is earlier than the resolution's own.
final class PendingOutcome: Sendable {
    private enum Waiter {
        case waiting(CheckedContinuation<Result<LinkOutcome, LinkError>, Never>, timer: Task<Void, Never>?)
        /// Gave up before its continuation was registered (cancelled or timed out first), with this error.
        case abandoned(LinkError)
    }

    private struct State {
        var outcome: LinkOutcome?
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
    }

    /// When the resolution itself ends at the latest.
    let deadline: ContinuousClock.Instant
    private let state = Mutex(State())

    init(deadline: ContinuousClock.Instant) {
        self.deadline = deadline
    }

    /// The outcome, once there is one.
    var outcome: LinkOutcome? { state.withTrackedLock { $0.outcome } }

    /// Records the outcome and resumes every waiter with it.
    func complete(_ outcome: LinkOutcome) {
        let waiters = state.withTrackedLock { state in
            state.outcome = outcome
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for case let .waiting(continuation, timer) in waiters {
            timer?.cancel()
            continuation.resume(returning: .success(outcome))
        }
    }

    /// Waits for the outcome, however long the resolution takes (it ends by ``deadline``), ignoring cancellation.
    var value: LinkOutcome {
        get async {
            if let outcome { return outcome }
            let result = await withCheckedContinuation { continuation in
                let done: LinkOutcome? = state.withTrackedLock { state in
                    if let outcome = state.outcome { return outcome }
                    state.nextID += 1
                    state.waiters[state.nextID] = .waiting(continuation, timer: nil)
                    return nil
                }
                if let done { continuation.resume(returning: .success(done)) }
            }
            // Only a waiter registered with a deadline or a cancellation handler can be given up on.
            guard case let .success(outcome) = result else { preconditionFailure("unreachable") }
            return outcome
        }
    }

    /// Waits for the outcome, giving up when the calling task is cancelled or at `giveUpAt`.
    ///
    /// - Parameters:
    ///   - giveUpAt: The waiter's own deadline; `nil` waits for the resolution (which ends by ``deadline``).
    ///   - clock: The clock of `giveUpAt`.
    ///   - url: The link, for error messages.
    /// - Returns: The outcome, or `cancelled` / `timeout` when this waiter gave up first.
    func wait(giveUpAt: ContinuousClock.Instant?, clock: LinkClock, url: URL) async -> Result<LinkOutcome, LinkError> {
        if let outcome { return .success(outcome) }
        let id = state.withTrackedLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let timer: Task<Void, Never>? = if let giveUpAt, giveUpAt < deadline {
                    // As urgent as the resolutions it races, so a busy pool does not run it late.
                    Task(priority: .userInitiated) { [self] in
                        guard (try? await clock.sleep(until: giveUpAt)) != nil else { return }
                        giveUp(id, with: Self.timeoutError(url))
                    }
                } else {
                    nil
                }
                let early: Result<LinkOutcome, LinkError>? = state.withTrackedLock { state in
                    if let outcome = state.outcome { return .success(outcome) }
                    if case let .abandoned(error)? = state.waiters[id] {
                        state.waiters[id] = nil
                        return .failure(error)
                    }
                    state.waiters[id] = .waiting(continuation, timer: timer)
                    return nil
                }
                if let early {
                    timer?.cancel()
                    continuation.resume(returning: early)
                }
            }
        } onCancel: {
            giveUp(id, with: Self.cancelledError(url))
        }
    }

    private func giveUp(_ id: UInt64, with error: LinkError) {
        let waiter = state.withTrackedLock { state -> Waiter? in
            guard state.outcome == nil else { return nil }
            guard let waiter = state.waiters[id] else {
                // Gave up before the continuation was registered: leave the error for `wait`.
                state.waiters[id] = .abandoned(error)
                return nil
            }
            state.waiters[id] = nil
            return waiter
        }
        if case let .waiting(continuation, timer)? = waiter {
            timer?.cancel()
            continuation.resume(returning: .failure(error))
        }
    }

    private static func cancelledError(_ url: URL) -> LinkError {
        LinkError(
            code: .cancelled,
            message: "Stopped waiting for \(url.redactedString): the calling task was cancelled."
                + " The resolution goes on for the other callers and its notification is still posted."
        )
    }

    private static func timeoutError(_ url: URL) -> LinkError {
        LinkError(
            code: .timeout,
            message: "No result for \(url.redactedString) within this call's deadline;"
                + " the resolution goes on for the other callers. Retry later or open the link in a browser."
        )
    }
}
