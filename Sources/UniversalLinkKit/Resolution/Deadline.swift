import Synchronization
import _LinkKitLocking

/// Thrown by ``withDeadline(_:clock:operation:)`` when the deadline passes first.
struct DeadlineExceeded: Error {}

/// Runs `operation` and returns its result, or throws ``DeadlineExceeded`` at `deadline`, whichever comes first.
///
/// The operation runs in its own task and is cancelled at the deadline, but it is not awaited: a transport that
/// ignores cancellation cannot hold the caller past its deadline. Cancelling the caller cancels the operation
/// and throws `CancellationError` at once.
func withDeadline<T: Sendable>(
    _ deadline: ContinuousClock.Instant,
    clock: LinkClock,
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let work = Task {
                let result: Result<T, any Error>
                do { result = .success(try await operation()) } catch { result = .failure(error) }
                race.finish(result)
            }
            let timer = Task {
                try? await clock.sleep(until: deadline)
                if !Task.isCancelled { race.finish(.failure(DeadlineExceeded())) }
            }
            race.attach(work: work, timer: timer)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The first of operation, timer and cancellation to finish resumes the caller and cancels the others.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var pendingResult: Result<T, any Error>?
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
        var finished = false
    }

    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withTrackedLock { state -> Result<T, any Error>? in
            if let result = state.pendingResult {
                return result
            }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func attach(work: Task<Void, Never>, timer: Task<Void, Never>) {
        let finished = state.withTrackedLock { state -> Bool in
            state.work = work
            state.timer = timer
            return state.finished
        }
        if finished {
            work.cancel()
            timer.cancel()
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, work, timer) = state.withTrackedLock { state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?, Task<Void, Never>?) in
            guard !state.finished else { return (nil, nil, nil) }
            state.finished = true
            let continuation = state.continuation
            state.continuation = nil
            if continuation == nil { state.pendingResult = result }
            return (continuation, state.work, state.timer)
        }
        work?.cancel()
        timer?.cancel()
        continuation?.resume(with: result)
    }
}
