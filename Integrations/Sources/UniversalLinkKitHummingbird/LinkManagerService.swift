public import Logging
public import ServiceLifecycle
public import UniversalLinkKit

/// Runs a `LinkManager`'s shutdown as a swift-service-lifecycle `Service`: when the group shuts down gracefully,
/// the manager stops taking links (new requests answer `503 shuttingDown`, `readyz` answers 503), lets the ones in
/// flight finish within the grace period, and cancels the rest (their requests answer `503 shuttingDown`).
///
/// Put it **after** the HTTP application in the group's services: a group shuts its services down in reverse
/// order, so the manager's grace period starts the moment shutdown does, while the server still answers, and the
/// server drains only once the manager has answered every link. From the signal to the end, shutdown takes at
/// most the grace period plus the time to cancel, whatever the resolution deadline. (Added to the application with
/// `addServices`, it would run only after the server waited for every request in flight, each up to its deadline.)
///
/// ```swift
/// let routes = LinkRoutes(manager: manager)
/// routes.add(to: router)
/// let app = Application(router: router)
/// let services = ServiceGroup(configuration: .init(
///     services: [app, LinkManagerService(routes: routes, gracePeriod: .seconds(10), logger: logger)],
///     gracefulShutdownSignals: [.sigterm, .sigint],
///     logger: logger
/// ))
/// try await services.run()
/// ```
///
/// It logs `shutdown started` (with `link.inFlight`, the requests waiting for a link, and `shutdown.grace`) and
/// `shutdown finished` (with `shutdown.duration`) at `info`.
public struct LinkManagerService: Service {
    /// The manager.
    public let manager: LinkManager
    /// How long in-flight resolutions may take once shutdown began.
    public let gracePeriod: Duration
    /// Where the shutdown lines go; `nil`: nowhere.
    public let logger: Logger?
    private let inFlight: @Sendable () -> Int

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - manager: The manager.
    ///   - gracePeriod: How long in-flight resolutions may take once shutdown began. Default 10 s.
    ///   - logger: Where the shutdown lines go. Default: nowhere.
    public init(manager: LinkManager, gracePeriod: Duration = .seconds(10), logger: Logger? = nil) {
        self.manager = manager
        self.gracePeriod = gracePeriod
        self.logger = logger
        self.inFlight = { 0 }
    }

    /// Creates the service for the manager of `routes`, whose requests in flight the `shutdown started` line
    /// counts.
    ///
    /// - Parameters:
    ///   - routes: The routes; their manager is shut down.
    ///   - gracePeriod: How long in-flight resolutions may take once shutdown began. Default 10 s.
    ///   - logger: Where the shutdown lines go. Default: nowhere.
    public init(routes: LinkRoutes, gracePeriod: Duration = .seconds(10), logger: Logger? = nil) {
        self.manager = routes.manager
        self.gracePeriod = gracePeriod
        self.logger = logger
        self.inFlight = { routes.requestsInFlight }
    }

    /// Waits for graceful shutdown (or cancellation), then shuts the manager down.
    public func run() async throws {
        // Throws only when the task is cancelled: the manager is shut down either way (at once, then).
        try? await gracefulShutdown()
        let started = ContinuousClock.now
        logger?.info(
            "shutdown started",
            metadata: [
                "link.inFlight": .stringConvertible(inFlight()),
                "shutdown.grace": .string(DurationText.rounded(gracePeriod)),
            ]
        )
        await manager.shutdown(gracePeriod: gracePeriod)
        logger?.info(
            "shutdown finished",
            metadata: ["shutdown.duration": .string(DurationText.rounded(ContinuousClock.now - started))]
        )
    }
}
