import Synchronization
internal import _LinkKitLocking

/// One wait for one value, with a deadline and the calling task's cancellation: the one way the package and its
/// testing kit wait.
///
/// Invariant: a waiter ends exactly once, with the first of ``resume(returning:)``, its deadline (on the injected
/// clock's ``DeadlineScheduler``) or the cancellation of the task that awaits it; whatever comes later is ignored.
/// The owner registers the waiter where the value will come from *before* awaiting it, and the deadline is armed
/// only once the continuation is stored, so no ending is lost to a race: a value or a cancellation that comes
/// before ``wait(until:clock:)`` is kept and returned at once. A waiter is awaited at most once.
///
/// No task is started: the deadline is an entry in the clock's scheduler (one sleeping task per clock, not one per
/// wait). Waiting allocates the waiter and its continuation.
///
/// ```swift
/// // snippet: skip
/// // (a package type, which the snippets module cannot see; `register` and `use` stand for the owner's code)
/// let waiter = Waiter<Int>()
/// register(waiter)                      // under the owner's lock, after checking the value is not there yet
/// switch await waiter.wait(until: deadline, clock: clock) {
/// case .value(let count): use(count)
/// case .deadline, .cancelled: giveUp()
/// }
/// ```
package final class Waiter<Value: Sendable>: Sendable {
    /// How a wait ended.
    package enum End: Sendable {
        /// The value arrived.
        case value(Value)
        /// The deadline passed first.
        case deadline
        /// The awaiting task was cancelled first.
        case cancelled
    }

    private enum Phase {
        /// Not ended, not awaited yet.
        case idle
        /// Awaited: the continuation to resume, and the deadline entry to cancel when something else ends it.
        case waiting(CheckedContinuation<End, Never>, timer: DeadlineScheduler.Ticket?, scheduler: DeadlineScheduler?)
        /// Ended before it was awaited; the end is returned by the wait.
        case ended(End)
        /// Ended and returned.
        case finished
    }

    private let phase = Mutex(Phase.idle)

    /// Creates a waiter that has not ended.
    package init() {}

    /// Whether the waiter has ended (a value, its deadline or a cancellation).
    package var hasEnded: Bool {
        phase.withTrackedLock { phase in
            switch phase {
            case .idle, .waiting: false
            case .ended, .finished: true
            }
        }
    }

    /// Ends the wait with `value`, unless it has ended already.
    ///
    /// - Parameter value: The value.
    /// - Returns: Whether this call ended the wait.
    @discardableResult
    package func resume(returning value: Value) -> Bool {
        end(.value(value))
    }

    /// Waits for the value until `deadline` on `clock`, or until the calling task is cancelled.
    ///
    /// - Parameters:
    ///   - deadline: When to give up; `nil` waits without a deadline (the value is known to come).
    ///   - clock: The clock `deadline` is on; its scheduler arms the deadline.
    /// - Returns: How the wait ended.
    package func wait(until deadline: ContinuousClock.Instant?, clock: LinkClock) async -> End {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<End, Never>) in
                let early = register(continuation)
                if let early { return continuation.resume(returning: early) }
                guard let deadline else { return }
                // Armed after the continuation is stored: when it fires, there is a waiter to end.
                let scheduler = clock.scheduler
                let ticket = scheduler.schedule(at: deadline) { [self] in end(.deadline) }
                let attached = phase.withTrackedLock { phase -> Bool in
                    guard case let .waiting(continuation, nil, nil) = phase else { return false }
                    phase = .waiting(continuation, timer: ticket, scheduler: scheduler)
                    return true
                }
                // Ended between the two locks: the entry is no longer needed.
                if !attached { scheduler.cancel(ticket) }
            }
        } onCancel: {
            end(.cancelled)
        }
    }

    /// Waits for the value with no deadline, ignoring the calling task's cancellation: for a value that is known to
    /// come (a resolution that ends by its own deadline).
    package var value: Value {
        get async {
            let end = await withCheckedContinuation { (continuation: CheckedContinuation<End, Never>) in
                let early = register(continuation)
                if let early { continuation.resume(returning: early) }
            }
            // Nothing but a value can end a wait that has neither a deadline nor a cancellation handler.
            guard case let .value(value) = end else { preconditionFailure("a value wait ended without its value") }
            return value
        }
    }

    /// Ends the wait with `end` unless it has ended: resumes the awaiting task (outside the lock) and disarms its
    /// deadline, or keeps the end for the wait to come.
    /// Stores the one continuation awaiting the waiter, or hands back how it already ended.
    ///
    /// - Returns: The end to resume with at once, or `nil` when the continuation is stored.
    private func register(_ continuation: CheckedContinuation<End, Never>) -> End? {
        phase.withTrackedLock { phase -> End? in
            switch phase {
            case .idle:
                phase = .waiting(continuation, timer: nil, scheduler: nil)
                return nil
            case let .ended(end):
                phase = .finished
                return end
            case .waiting, .finished:
                preconditionFailure("a Waiter is awaited once")
            }
        }
    }

    @discardableResult
    private func end(_ end: End) -> Bool {
        let (continuation, timer, scheduler, ended) = phase.withTrackedLock {
            phase -> (CheckedContinuation<End, Never>?, DeadlineScheduler.Ticket?, DeadlineScheduler?, Bool) in
            switch phase {
            case .idle:
                phase = .ended(end)
                return (nil, nil, nil, true)
            case let .waiting(continuation, timer, scheduler):
                phase = .finished
                return (continuation, timer, scheduler, true)
            case .ended, .finished:
                return (nil, nil, nil, false)
            }
        }
        // A fired entry is gone already; cancelling it again costs a dictionary lookup.
        if let timer, let scheduler { scheduler.cancel(timer) }
        continuation?.resume(returning: end)
        return ended
    }
}
