import Synchronization
internal import _LinkKitLocking

/// A one-shot timer at a resolution's deadline, disarmed as soon as the resolution finishes first.
///
/// On the system clock (``LinkClock/continuous``) it is an entry of the process-wide ``DeadlineScheduler``:
/// arming and disarming it costs a lock, no task, no hop through the cooperative pool and usually no Dispatch
/// wake-up, and a disarmed timer releases its handler at once instead of waking at the deadline. An injected
/// clock keeps driving the deadline: the timer is then a task sleeping on that clock, cancelled like any task.
final class DeadlineTimer: Sendable {
    private enum Mechanism {
        case scheduled(UInt64)
        case sleeper(Task<Void, Never>)
    }

    private let mechanism: Mutex<Mechanism?>

    /// Arms the timer.
    ///
    /// - Parameters:
    ///   - deadline: When to fire; an instant already past fires at once (asynchronously).
    ///   - clock: The clock the deadline is measured on.
    ///   - fire: Called at most once, at the deadline, unless ``cancel()`` came first. Never called synchronously
    ///     from this initialiser.
    init(at deadline: ContinuousClock.Instant, clock: LinkClock, fire: @escaping @Sendable () -> Void) {
        if clock.isSystemContinuous {
            mechanism = Mutex(.scheduled(DeadlineScheduler.shared.arm(deadline, fire: fire)))
        } else {
            mechanism = Mutex(.sleeper(Task {
                do {
                    try await clock.sleep(until: deadline)
                } catch {
                    return
                }
                if !Task.isCancelled { fire() }
            }))
        }
    }

    deinit {
        cancel()
    }

    /// Disarms the timer: `fire` will not be called (unless it is already running) and is released.
    func cancel() {
        let mechanism = mechanism.withTrackedLock { mechanism -> Mechanism? in
            let current = mechanism
            mechanism = nil
            return current
        }
        switch mechanism {
        case .scheduled(let id): DeadlineScheduler.shared.disarm(id)
        case .sleeper(let task): task.cancel()
        case nil: break
        }
    }
}
