/// The clock every deadline and the duplicate window are measured on: the clock a host injects (any
/// `Clock<Duration>`, `ContinuousClock` by default), with its instants expressed as `ContinuousClock.Instant`s, and
/// the one scheduler that arms the deadlines of everything that shares it.
///
/// Create one per injected clock and share it (copies share its scheduler).
package struct LinkClock: Sendable {
    private let nowBody: @Sendable () -> ContinuousClock.Instant
    private let sleepBody: @Sendable (ContinuousClock.Instant) async throws -> Void
    /// Runs the deadlines armed on this clock.
    package let scheduler: DeadlineScheduler

    /// Wraps a clock. A clock whose instants are `ContinuousClock.Instant`s (the system's `ContinuousClock`, a test
    /// clock built on it) is used as it is; any other clock's instants are mapped onto `ContinuousClock.Instant`s
    /// from a fixed origin, so that two wraps of one clock agree.
    package init<C: Clock<Duration>>(_ clock: C) {
        if C.Instant.self == ContinuousClock.Instant.self {
            nowBody = { unsafeBitCast(clock.now, to: ContinuousClock.Instant.self) }
            sleepBody = { try await clock.sleep(until: unsafeBitCast($0, to: C.Instant.self), tolerance: nil) }
        } else {
            let origin = Self.origin
            let clockOrigin = clock.now
            nowBody = { origin + clockOrigin.duration(to: clock.now) }
            sleepBody = { try await clock.sleep(until: clockOrigin.advanced(by: origin.duration(to: $0)), tolerance: nil) }
        }
        let now = nowBody
        let sleep = sleepBody
        scheduler = DeadlineScheduler(now: now, sleep: sleep)
    }

    /// The instant other clocks' instants are counted from.
    private static let origin = ContinuousClock.now

    /// The system's continuous clock, one for the process.
    package static let continuous = LinkClock(ContinuousClock())

    /// The current instant.
    package var now: ContinuousClock.Instant { nowBody() }

    /// Suspends until `deadline`; throws `CancellationError` when the task is cancelled first.
    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await sleepBody(deadline)
    }
}
