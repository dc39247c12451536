import Foundation
import Synchronization
internal import _LinkKitLocking

/// The deadline passed before the operation finished.
package struct DeadlineExceeded: Error, Sendable {
    package init() {}
}

/// Runs `operation` until `deadline` on `clock`: the one deadline mechanism of the package (the resolver and the
/// link doctor's fetches both go through it, with whatever transport).
///
/// The operation and a sleep on the injected clock each run in a task; the first to finish resumes the caller and
/// cancels the other. The caller is resumed at the deadline even when the operation ignores cancellation (a task
/// group would wait for it), and at once when the calling task is cancelled (`CancellationError`).
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
    let race = DeadlineRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let work = Task {
                do {
                    race.finish(.success(try await operation()))
                } catch {
                    race.finish(.failure(error))
                }
            }
            let timer = Task {
                // A cancelled sleep means the operation ended first: nothing to report.
                guard (try? await clock.sleep(until: deadline)) != nil else { return }
                race.finish(.failure(DeadlineExceeded()))
            }
            race.attach(work, timer)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The state of one race: the caller's continuation, resumed once, and the two tasks to cancel then.
private final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var outcome: Result<T, any Error>?
        var tasks: [Task<Void, Never>] = []
    }

    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withTrackedLock { state -> Result<T, any Error>? in
            guard let outcome = state.outcome else {
                state.continuation = continuation
                return nil
            }
            return outcome
        }
        // Cancelled before the race started.
        if let early { continuation.resume(with: early) }
    }

    func attach(_ work: Task<Void, Never>, _ timer: Task<Void, Never>) {
        let finished = state.withTrackedLock { state -> Bool in
            if state.outcome != nil { return true }
            state.tasks = [work, timer]
            return false
        }
        if finished {
            work.cancel()
            timer.cancel()
        }
    }

    /// The first call resumes the caller and cancels both tasks; later calls do nothing.
    func finish(_ outcome: Result<T, any Error>) {
        let (continuation, tasks) = state.withTrackedLock { state -> (CheckedContinuation<T, any Error>?, [Task<Void, Never>]) in
            guard state.outcome == nil else { return (nil, []) }
            state.outcome = outcome
            defer { state.continuation = nil; state.tasks = [] }
            return (state.continuation, state.tasks)
        }
        for task in tasks { task.cancel() }
        continuation?.resume(with: outcome)
    }
}
