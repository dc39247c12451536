import Foundation
import Synchronization
internal import _LinkKitLocking

/// One resolution in flight: the click, its deadline, the outcome its activations await, and the one task that
/// resolves it.
///
/// Invariant: the flight is finished once (``finish()`` returns `true` to exactly one caller: the resolution's
/// task, its deadline, or a shutdown), and only the finisher delivers its outcome; its task is cancelled by
/// ``cancel()`` whether it was attached before or after.
final class Flight: Sendable {
    private struct Control {
        var task: Task<Void, Never>?
        var hasTaskEnded = false
        var isCancelled = false
        var isFinished = false
        var deadlineTicket: DeadlineScheduler.Ticket?
        var resolvesHere = true
        var isCancelledByShutdown = false
    }

    /// The click.
    let identity: ClickIdentity
    /// The link as the activation that started the flight handed it in.
    let url: URL
    /// When the activation that started it happened.
    let startedAt: ContinuousClock.Instant
    /// The outcome; its ``PendingOutcome/deadline`` is the flight's.
    let pending: PendingOutcome
    private let control = Mutex(Control())

    init(identity: ClickIdentity, url: URL, startedAt: ContinuousClock.Instant, deadline: ContinuousClock.Instant) {
        self.identity = identity
        self.url = url
        self.startedAt = startedAt
        self.pending = PendingOutcome(deadline: deadline)
    }

    /// When the resolution ends at the latest.
    var deadline: ContinuousClock.Instant { pending.deadline }

    /// Hands over the task that resolves the flight and the deadline entry that ends it at the latest.
    ///
    /// - Returns: `false` when the flight finished before it was attached (a transport that answers at once): its
    ///   deadline entry was not kept, and the caller must cancel it.
    @discardableResult
    func attach(_ task: Task<Void, Never>, deadline ticket: DeadlineScheduler.Ticket) -> Bool {
        let (cancelNow, kept) = control.withTrackedLock { control -> (Bool, Bool) in
            if !control.hasTaskEnded { control.task = task }
            guard !control.isFinished else { return (control.isCancelled, false) }
            control.deadlineTicket = ticket
            return (control.isCancelled, true)
        }
        if cancelNow { task.cancel() }
        return kept
    }

    /// Lets go of the resolving task once its resolution has returned (nothing is left to cancel): a finished flight
    /// is remembered for the duplicate window, and a task kept by its handle holds its whole allocation (over a
    /// kilobyte) until then.
    func taskEnded() {
        let task = control.withTrackedLock { control -> Task<Void, Never>? in
            control.hasTaskEnded = true
            defer { control.task = nil }
            return control.task
        }
        withExtendedLifetime(task) {}
    }

    /// Whether the flight keeps a handle on its resolving task, for tests.
    var holdsTask: Bool { control.withTrackedLock { $0.task != nil } }

    /// Whether the flight's outcome was delivered (``finish()`` was won).
    var isFinished: Bool { control.withTrackedLock { $0.isFinished } }

    /// Whether ``cancel(byShutdown:)`` said a shutdown cut the flight short.
    var isCancelledByShutdown: Bool { control.withTrackedLock { $0.isCancelledByShutdown } }

    /// Cancels the resolving task (now, or when it is attached).
    ///
    /// - Parameter byShutdown: The manager is shutting down (not the flight's deadline).
    func cancel(byShutdown: Bool = false) {
        let task = control.withTrackedLock { control -> Task<Void, Never>? in
            control.isCancelled = true
            if byShutdown { control.isCancelledByShutdown = true }
            return control.task
        }
        task?.cancel()
    }

    /// Whether this process resolves the click itself (and may have sent its request): `true` unless a shared
    /// ``ClaimStore`` says another process holds it. An outcome of a flight that did not resolve here and timed out
    /// is not remembered for the duplicate window.
    var resolvesHere: Bool {
        get { control.withTrackedLock { $0.resolvesHere } }
        set { control.withTrackedLock { $0.resolvesHere = newValue } }
    }

    /// Claims the right to deliver the outcome.
    ///
    /// - Returns: `true` for the first caller, with the deadline entry to disarm; `false` afterwards.
    func finish() -> (won: Bool, deadlineTicket: DeadlineScheduler.Ticket?) {
        control.withTrackedLock { control in
            guard !control.isFinished else { return (false, nil) }
            control.isFinished = true
            return (true, control.deadlineTicket)
        }
    }
}
