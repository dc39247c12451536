import Synchronization

/// Runs one database operation with a time limit and the caller's cancellation, returning as soon as either ends it,
/// whether or not the operation itself stops then.
///
/// Why not a task group: a group returns only once every child has, and an operation blocked in the connection pool
/// or on a socket to a database that went away may take far longer than its caller can wait. Here the operation runs
/// in a task of its own, cancelled (not awaited) when the limit or the caller's cancellation comes first.
///
/// An operation that ends after its caller stopped waiting is handed to `abandoned`: a claim the database made after
/// all must be given back, or it would hold the click for a whole lease with nobody resolving it.
///
/// Invariant: the caller is resumed exactly once, by whichever of the operation, the timer and the cancellation
/// handler is first; the other two find the state `.finished`, and only the operation's late result goes anywhere
/// (to `abandoned`).
enum OperationDeadline {
    private enum State<Value: Sendable> {
        case waiting
        case armed(CheckedContinuation<Value, any Error>, [Task<Void, Never>])
        case finished
        /// The caller was cancelled before the continuation existed.
        case cancelledEarly
    }

    private final class Race<Value: Sendable>: Sendable {
        let state = Mutex<State<Value>>(.waiting)

        func arm(_ continuation: CheckedContinuation<Value, any Error>, start: (Race<Value>) -> [Task<Void, Never>]) {
            let cancelled = state.withLock { state -> Bool in
                if case .cancelledEarly = state {
                    state = .finished
                    return true
                }
                state = .armed(continuation, [])
                return false
            }
            if cancelled { return continuation.resume(throwing: CancellationError()) }
            // The tasks start after the state holds the continuation, so a task that ends at once finds it.
            let tasks = start(self)
            let finishedAlready = state.withLock { state -> Bool in
                guard case let .armed(continuation, _) = state else { return true }
                state = .armed(continuation, tasks)
                return false
            }
            if finishedAlready { tasks.forEach { $0.cancel() } }
        }

        /// The operation's own end: its result goes to the caller, or to `abandoned` when the caller is gone.
        func operationEnded(_ result: Result<Value, any Error>, abandoned: (Result<Value, any Error>) -> Void) {
            if !finish(result) { abandoned(result) }
        }

        /// Resumes the caller with `result`, unless it was resumed already; returns whether this call resumed it.
        @discardableResult
        func finish(_ result: Result<Value, any Error>) -> Bool {
            let armed: (CheckedContinuation<Value, any Error>, [Task<Void, Never>])? = state.withLock { state in
                switch state {
                case let .armed(continuation, tasks):
                    state = .finished
                    return (continuation, tasks)
                case .waiting:
                    state = .cancelledEarly
                    return nil
                case .finished, .cancelledEarly:
                    return nil
                }
            }
            guard let (continuation, tasks) = armed else { return false }
            tasks.forEach { $0.cancel() }
            continuation.resume(with: result)
            return true
        }
    }

    /// The operation's value, or an error when the limit passed first, or `CancellationError` when the caller was
    /// cancelled first.
    ///
    /// - Parameters:
    ///   - limit: How long the operation may take.
    ///   - timedOut: The error thrown when it takes longer.
    ///   - abandoned: What to do with the operation's result when it ends after the caller stopped waiting.
    ///   - operation: The operation.
    static func run<Value: Sendable>(
        within limit: Duration,
        timedOut: @escaping @Sendable () -> any Error,
        abandoned: @escaping @Sendable (Result<Value, any Error>) -> Void = { _ in },
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try Task.checkCancellation()
        let race = Race<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                race.arm(continuation) { race in
                    let work = Task {
                        let result: Result<Value, any Error>
                        do {
                            result = .success(try await operation())
                        } catch {
                            result = .failure(error)
                        }
                        race.operationEnded(result, abandoned: abandoned)
                    }
                    let timer = Task {
                        do {
                            try await Task.sleep(for: limit)
                            race.finish(.failure(timedOut()))
                        } catch {
                            // Cancelled: the operation or the caller ended the race.
                        }
                    }
                    return [work, timer]
                }
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }
}
