/// The deadline passed before the operation finished.
package struct DeadlineExceeded: Error, Sendable {
    package init() {}
}

/// Runs `operation` until `deadline` on `clock`, for callers that must get an answer at the deadline whatever the
/// operation does (the link doctor's fetches, ``LinkResolver/resolve(_:startedAt:deadline:)`` called on its own).
///
/// The operation runs in a task of its own, which this function must start: the caller is resumed at the deadline
/// even when the operation ignores cancellation, so the caller's task cannot be the one running it; at the
/// deadline or on the caller's cancellation that task is cancelled and left to finish. The deadline is a
/// ``Waiter``'s, armed on the clock's scheduler: no timer task.
///
/// - Parameters:
///   - deadline: When to give up.
///   - clock: The clock `deadline` is on.
///   - operation: The work.
/// - Returns: The operation's result.
/// - Throws: ``DeadlineExceeded``, `CancellationError`, or what the operation threw.
package func withDeadline<T: Sendable>(
    _ deadline: ContinuousClock.Instant,
    clock: LinkClock,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let waiter = Waiter<Result<T, any Error>>()
    let work = Task.immediate {
        do {
            waiter.resume(returning: .success(try await operation()))
        } catch {
            waiter.resume(returning: .failure(error))
        }
    }
    switch await waiter.wait(until: deadline, clock: clock) {
    case let .value(result):
        return try result.get()
    case .deadline:
        work.cancel()
        throw DeadlineExceeded()
    case .cancelled:
        work.cancel()
        throw CancellationError()
    }
}
