/// A transport that enforces the resolver's deadline itself, so the resolver can await it directly.
///
/// For any other ``LinkTransport`` the resolver runs the whole resolution in a task of its own and races it
/// against a timer (``withDeadline(_:clock:operation:)``), because a transport it does not know may ignore
/// cancellation. A transport of this kind promises instead, for every call:
/// - it returns or throws ``DeadlineExceeded`` by `deadline` as measured on `clock` (an injected clock drives
///   it), without awaiting anything that could hold it longer, and abandons the request then;
/// - it throws `CancellationError` at once when the calling task is cancelled.
///
/// The resolver then needs no task, no timer and no continuation of its own: the caller's task waits on the
/// transport's continuation, which the answer, the deadline or a cancellation resumes. Internal on purpose:
/// only transports of this module can keep the promise, and wrappers (such as a test's host-mapping transport)
/// simply take the general path.
protocol DeadlineEnforcingTransport: LinkTransport {
    /// Sends a request, answering by `deadline` at the latest.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - maxBodyBytes: The largest body to accept.
    ///   - deadline: When to give up.
    ///   - clock: The clock `deadline` is measured on.
    /// - Returns: The answer, with its whole body.
    /// - Throws: ``TransportError``, ``DeadlineExceeded`` at the deadline, or `CancellationError` when the
    ///   calling task is cancelled.
    func send(
        _ request: TransportRequest, maxBodyBytes: Int, deadline: ContinuousClock.Instant, clock: LinkClock
    ) async throws -> TransportResponse
}
