import Synchronization
internal import _LinkKitLocking

/// One resolution's deadline: an absolute instant computed once, where the caller's time limit enters the package,
/// and the time it allowed (for messages). It travels as an argument; nothing downstream recomputes it.
package struct Deadline: Sendable, Hashable {
    /// When the work ends at the latest.
    package let instant: ContinuousClock.Instant
    /// How long it allowed from its start.
    package let allowed: Duration

    /// The deadline of work started at `start`: `timeout` later, or earlier at `limit` when given.
    ///
    /// - Parameters:
    ///   - start: When the work started.
    ///   - timeout: The configured time limit.
    ///   - limit: An earlier instant of the caller's, if any.
    package init(start: ContinuousClock.Instant, timeout: Duration, limit: ContinuousClock.Instant? = nil) {
        var instant = start + timeout
        if let limit, limit < instant { instant = limit }
        self.instant = instant
        self.allowed = instant - start
    }
}

/// The deadline passed before the operation finished.
package struct DeadlineExceeded: Error, Sendable {
    package init() {}
}

/// Runs `operation` on a task of its own until `deadline` on `clock`, and hands `end` exactly one ending: the
/// operation's result, the deadline, or the cancellation of that task, whichever comes first, whatever the operation
/// does. The package's one way to keep a deadline over work it does not control (a transport, a claim store, a name
/// lookup); ``withDeadline(_:clock:_:)`` awaits it.
///
/// The task starts on the calling thread and runs there until its first suspension (a request is handed to its
/// transport before this returns, and no thread is woken only to start it); it goes on in the concurrency pool. The
/// deadline is one entry on the clock's scheduler, armed unless the operation ended while it started, and disarmed
/// when it ends first. At the deadline the task is cancelled and left to finish; what it returns then is dropped.
/// `end` runs on the operation's task when the operation ends first, else on a task of its own: never on the
/// scheduler's task nor on the canceller's. A deadline already passed ends with `.deadline` before the operation
/// starts.
///
/// - Parameters:
///   - deadline: When to give up.
///   - clock: The clock `deadline` is on.
///   - priority: The priority of the task, and of a task that runs `end`; `nil` inherits the caller's.
///   - operation: The work.
///   - end: Told how the work ended, once.
/// - Returns: The task: cancelling it ends the work at once, as `.cancelled`.
@discardableResult
package func startWithDeadline<T: Sendable>(
    _ deadline: ContinuousClock.Instant,
    clock: LinkClock,
    priority: TaskPriority? = nil,
    _ operation: @escaping @Sendable () async throws -> T,
    end: @escaping @Sendable (Waiter<Result<T, any Error>>.End) -> Void
) -> Task<Void, Never> {
    guard clock.now < deadline else { return Task(priority: priority) { end(.deadline) } }
    let race = DeadlineRace(scheduler: clock.scheduler)
    let task = Task.immediate(priority: priority) {
        let result: Result<T, any Error>
        do {
            result = .success(try await withTaskCancellationHandler(operation: operation) {
                if race.end() { Task(priority: priority) { end(.cancelled) } }
            })
        } catch {
            result = .failure(error)
        }
        if race.end() { end(.value(result)) }
    }
    race.arm(at: deadline) {
        guard race.end() else { return }
        task.cancel()
        Task(priority: priority) { end(.deadline) }
    }
    return task
}

/// Runs `operation` until `deadline` on `clock`, and returns its result:
/// ``startWithDeadline(_:clock:priority:_:end:)``, awaited.
///
/// The caller is resumed at the deadline, or at once when its own task is cancelled, even when the operation ignores
/// cancellation.
///
/// - Parameters:
///   - deadline: When to give up; a deadline already passed throws at once, before anything starts.
///   - clock: The clock `deadline` is on.
///   - operation: The work.
/// - Returns: The operation's result.
/// - Throws: ``DeadlineExceeded``, `CancellationError`, or what the operation threw.
package func withDeadline<T: Sendable>(
    _ deadline: ContinuousClock.Instant,
    clock: LinkClock,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    guard clock.now < deadline else { throw DeadlineExceeded() }
    let waiter = Waiter<Result<T, any Error>>()
    let work = startWithDeadline(deadline, clock: clock, operation) { end in
        switch end {
        case let .value(result): waiter.resume(returning: result)
        case .deadline: waiter.resume(returning: .failure(DeadlineExceeded()))
        case .cancelled: waiter.resume(returning: .failure(CancellationError()))
        }
    }
    return try await withTaskCancellationHandler { await waiter.value } onCancel: { work.cancel() }.get()
}

/// Who ends a ``startWithDeadline(_:clock:priority:_:end:)`` race: the first of the operation, the deadline and the
/// cancellation to call ``end()``; the deadline's entry is disarmed then.
private final class DeadlineRace: Sendable {
    private struct State {
        var ended = false
        var ticket: DeadlineScheduler.Ticket?
    }

    private let scheduler: DeadlineScheduler
    private let state = Mutex(State())

    init(scheduler: DeadlineScheduler) {
        self.scheduler = scheduler
    }

    /// Schedules the deadline's action, unless the race has ended; keeps its entry, to disarm it at the end.
    func arm(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) {
        guard !state.withTrackedLock({ $0.ended }) else { return }
        let ticket = scheduler.schedule(at: deadline, action)
        let ended = state.withTrackedLock { state -> Bool in
            if !state.ended { state.ticket = ticket }
            return state.ended
        }
        // Ended between the two locks: the entry is no longer needed.
        if ended { scheduler.cancel(ticket) }
    }

    /// Ends the race; only the first call does.
    ///
    /// - Returns: Whether this call ended it.
    func end() -> Bool {
        let (first, ticket) = state.withTrackedLock { state -> (Bool, DeadlineScheduler.Ticket?) in
            guard !state.ended else { return (false, nil) }
            state.ended = true
            defer { state.ticket = nil }
            return (true, state.ticket)
        }
        // The entry that fired is gone already; cancelling it again costs a dictionary lookup.
        if let ticket { scheduler.cancel(ticket) }
        return first
    }
}
