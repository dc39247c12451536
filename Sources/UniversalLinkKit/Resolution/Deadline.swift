import Synchronization
internal import _LinkKitLocking

/// Thrown by ``withDeadline(_:clock:operation:)``, and by a ``DeadlineEnforcingTransport``, when the deadline
/// passes first.
struct DeadlineExceeded: Error {}

/// Runs `operation` and returns its result, or throws ``DeadlineExceeded`` at `deadline`, whichever comes first.
///
/// The operation runs in its own task and is cancelled at the deadline, but it is not awaited: a transport that
/// ignores cancellation cannot hold the caller past its deadline. Cancelling the caller cancels the operation
/// and throws `CancellationError` at once.
///
/// This is the path for transports the resolver knows nothing about. Its cost is one task, started immediately
/// on the caller's thread where the runtime can (no hop through the cooperative pool until it first suspends),
/// one continuation, and a ``DeadlineTimer`` (a Dispatch timer on the system clock, no task).
func withDeadline<T: Sendable>(
    _ deadline: ContinuousClock.Instant,
    clock: LinkClock,
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            // The timer before the work: an operation that finishes without suspending must find it to cancel.
            // It holds the race weakly, so a timer that outlives the resolution keeps nothing alive.
            race.attach(timer: DeadlineTimer(at: deadline, clock: clock) { [weak race] in
                race?.finish(.failure(DeadlineExceeded()))
            })
            race.attach(work: startWork {
                let result: Result<T, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                race.finish(result)
            })
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// Starts `body` in a new task, running it on the current thread until it first suspends when the runtime
/// supports it (`Task.immediate`), so that starting the work is not a hop through the cooperative pool.
private func startWork(_ body: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        Task.immediate(operation: body)
    } else {
        Task(operation: body)
    }
}

/// The first of operation, timer and cancellation to finish resumes the caller and cancels the others.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var pendingResult: Result<T, any Error>?
        var work: Task<Void, Never>?
        var timer: DeadlineTimer?
        var finished = false
    }

    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withTrackedLock { state -> Result<T, any Error>? in
            if let result = state.pendingResult {
                state.pendingResult = nil
                return result
            }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func attach(timer: DeadlineTimer) {
        let finished = state.withTrackedLock { state -> Bool in
            if !state.finished { state.timer = timer }
            return state.finished
        }
        if finished { timer.cancel() }
    }

    func attach(work: Task<Void, Never>) {
        let finished = state.withTrackedLock { state -> Bool in
            if !state.finished { state.work = work }
            return state.finished
        }
        if finished { work.cancel() }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, work, timer) = state.withTrackedLock {
            state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?, DeadlineTimer?) in
            guard !state.finished else { return (nil, nil, nil) }
            state.finished = true
            let continuation = state.continuation
            state.continuation = nil
            if continuation == nil { state.pendingResult = result }
            // Dropped here, so a finished resolution holds neither its timer nor its task.
            defer { state.work = nil; state.timer = nil }
            return (continuation, state.work, state.timer)
        }
        work?.cancel()
        timer?.cancel()
        continuation?.resume(with: result)
    }
}
