/// The clock the resolver's deadline and the manager's duplicate window are measured on.
///
/// Production code uses ``continuous``; tests may inject a clock whose time they control. Every deadline of the
/// package (a resolution's, a caller's wait, the link doctor's fetches) is armed on the clock's one scheduler,
/// so an injected clock drives all of them.
public struct LinkClock: Sendable {
    /// The two operations a clock is made of.
    struct Operations: Sendable {
        let now: @Sendable () -> ContinuousClock.Instant
        let sleep: @Sendable (ContinuousClock.Instant) async throws -> Void
    }

    private let operations: Operations
    /// Runs the deadlines armed on this clock; copies of the clock share it.
    package let scheduler: DeadlineScheduler
    /// Whether this is ``continuous``, the system's clock that transports keep their deadlines on.
    package let isSystem: Bool

    /// Creates a clock from its two operations.
    ///
    /// Create one per time source and share it (copies share its deadline scheduler).
    ///
    /// - Parameters:
    ///   - now: The current instant.
    ///   - sleep: Suspends until the instant; throws `CancellationError` when the task is cancelled.
    public init(
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        sleep: @escaping @Sendable (ContinuousClock.Instant) async throws -> Void
    ) {
        self.init(now: now, sleep: sleep, isSystem: false)
    }

    private init(
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        sleep: @escaping @Sendable (ContinuousClock.Instant) async throws -> Void,
        isSystem: Bool
    ) {
        self.operations = Operations(now: now, sleep: sleep)
        self.scheduler = DeadlineScheduler(clock: operations)
        self.isSystem = isSystem
    }

    /// The system's continuous clock, one for the process.
    public static let continuous = LinkClock(
        now: { ContinuousClock.now },
        sleep: { try await Task.sleep(until: $0, clock: .continuous) },
        isSystem: true
    )

    /// The current instant.
    public var now: ContinuousClock.Instant { operations.now() }

    /// Suspends until `deadline`.
    ///
    /// - Parameter deadline: When to wake up.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await operations.sleep(deadline)
    }
}
