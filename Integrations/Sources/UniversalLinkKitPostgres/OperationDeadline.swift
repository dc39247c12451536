import Synchronization

/// Runs one database operation with a time limit and the caller's cancellation, returning as soon as either ends it,
/// whether or not the operation itself stops then.
///
/// Why not a task group: a group returns only once every child has, and an operation blocked in the connection pool
/// or on a socket to a database that went away may take far longer than its caller can wait. Here the operation runs
/// in a task of its own, cancelled (not awaited) when the limit or the caller's cancellation comes first.
///
/// Invariant: the caller is resumed exactly once, by whichever of the operation, the timer and the cancellation
/// handler is first; the other two find the state `.finished` and do nothing.
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

        func finish(_ result: Result<Value, any Error>) {
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
            guard let (continuation, tasks) = armed else { return }
            tasks.forEach { $0.cancel() }
            continuation.resume(with: result)
        }
    }

    /// The operation's value, or an error when the limit passed first, or `CancellationError` when the caller was
    /// cancelled first.
    ///
    /// - Parameters:
    ///   - limit: How long the operation may take.
    ///   - timedOut: The error thrown when it takes longer.
    ///   - operation: The operation.
    static func run<Value: Sendable>(
        within limit: Duration,
        timedOut: @escaping @Sendable () -> any Error,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try Task.checkCancellation()
        let race = Race<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                race.arm(continuation) { race in
                    let work = Task {
                        do {
                            race.finish(.success(try await operation()))
                        } catch {
                            race.finish(.failure(error))
                        }
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
