/// The clock the resolver's deadline and the manager's duplicate window are measured on.
///
/// Production code uses ``continuous``; tests may inject a clock whose time they control.
public struct LinkClock: Sendable {
    private let nowBody: @Sendable () -> ContinuousClock.Instant
    private let sleepBody: @Sendable (ContinuousClock.Instant) async throws -> Void
    /// `true` only for ``continuous``: its deadlines can then be timed by Dispatch instead of a sleeping task.
    let isSystemContinuous: Bool

    /// Creates a clock from its two operations.
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - sleep: Suspends until the instant; throws `CancellationError` when the task is cancelled.
    public init(
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        sleep: @escaping @Sendable (ContinuousClock.Instant) async throws -> Void
    ) {
        self.init(now: now, sleep: sleep, isSystemContinuous: false)
    }

    private init(
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        sleep: @escaping @Sendable (ContinuousClock.Instant) async throws -> Void,
        isSystemContinuous: Bool
    ) {
        self.nowBody = now
        self.sleepBody = sleep
        self.isSystemContinuous = isSystemContinuous
    }

    /// The system's continuous clock.
    public static var continuous: LinkClock {
        LinkClock(
            now: { ContinuousClock.now },
            sleep: { try await Task.sleep(until: $0, clock: .continuous) },
            isSystemContinuous: true
        )
    }

    /// The current instant.
    public var now: ContinuousClock.Instant { nowBody() }

    /// Suspends until `deadline`.
    ///
    /// - Parameter deadline: When to wake up.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await sleepBody(deadline)
    }
}
