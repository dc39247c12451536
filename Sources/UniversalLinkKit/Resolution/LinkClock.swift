/// The clock the resolver's deadline and the manager's duplicate window are measured on.
///
/// Production code uses ``continuous``; tests may inject a clock whose time they control.
public struct LinkClock: Sendable {
    private let nowBody: @Sendable () -> ContinuousClock.Instant
    private let sleepBody: @Sendable (ContinuousClock.Instant) async throws -> Void

    /// Creates a clock from its two operations.
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - sleep: Suspends until the instant; throws `CancellationError` when the task is cancelled.
    public init(
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        sleep: @escaping @Sendable (ContinuousClock.Instant) async throws -> Void
    ) {
        self.nowBody = now
        self.sleepBody = sleep
    }

    /// The system's continuous clock.
    public static var continuous: LinkClock {
        LinkClock(
            now: { ContinuousClock.now },
            sleep: { try await Task.sleep(until: $0, clock: .continuous) }
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
