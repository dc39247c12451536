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

/// Runs `operation` until `deadline` on `clock`: the package's one way to keep a deadline over work it does not
/// control (a transport, a claim store, a name lookup).
///
/// The operation runs in a task of its own: the caller is resumed at the deadline, or at once when its own task is
/// cancelled, even when the operation ignores cancellation; that task is then cancelled and left to finish. The
/// deadline is a ``Waiter``'s, armed on the clock's scheduler.
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
    let work = Task {
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
