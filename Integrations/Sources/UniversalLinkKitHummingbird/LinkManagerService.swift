public import Logging
public import ServiceLifecycle
public import UniversalLinkKit

/// Runs a `LinkManager`'s shutdown as a swift-service-lifecycle `Service`, in the order an orchestrator expects:
/// when the group shuts down gracefully, `readyz` answers 503 at once while links are still resolved for the drain
/// period (so a load balancer stops sending new ones), then the manager stops taking links (new requests answer
/// `503 shuttingDown`), lets the ones in flight finish within the grace period, and cancels the rest.
///
/// Put it **after** the HTTP application in the group's services: a group shuts its services down in reverse
/// order, so the drain starts the moment shutdown does, while the server still answers, and the server drains only
/// once the manager has answered every link. From the signal to the end, shutdown takes at most the drain period,
/// the grace period and the time to cancel, whatever the resolution deadline. (Added to the application with
/// `addServices`, it would run only after the server waited for every request in flight, each up to its deadline.)
///
/// ```swift
/// let routes = LinkRoutes(manager: manager)
/// routes.add(to: router)
/// let app = Application(router: router)
/// let services = ServiceGroup(configuration: .init(
///     services: [app, LinkManagerService(routes: routes, drainPeriod: .seconds(5), gracePeriod: .seconds(10), logger: logger)],
///     gracefulShutdownSignals: [.sigterm, .sigint],
///     logger: logger
/// ))
/// try await services.run()
/// ```
///
/// It logs `shutdown started` (with `link.inFlight`, the requests waiting for a link, `shutdown.drain` and
/// `shutdown.grace`), `drain finished` when the manager stops taking links, and `shutdown finished` (with
/// `shutdown.duration`) at `info`.
public struct LinkManagerService: Service {
    /// The manager.
    public let manager: LinkManager
    /// How long links are still taken after shutdown began, with `readyz` already answering 503.
    public let drainPeriod: Duration
    /// How long in-flight resolutions may take once the manager stopped taking links.
    public let gracePeriod: Duration
    /// Where the shutdown lines go; `nil`: nowhere.
    public let logger: Logger?
    private let inFlight: @Sendable () -> Int
    private let beginDraining: @Sendable () -> Void

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - manager: The manager.
    ///   - drainPeriod: How long links are still taken once shutdown began. Default 0.
    ///   - gracePeriod: How long in-flight resolutions may take once the manager stopped taking links. Default 10 s.
    ///   - logger: Where the shutdown lines go. Default: nowhere.
    public init(manager: LinkManager, drainPeriod: Duration = .zero, gracePeriod: Duration = .seconds(10), logger: Logger? = nil) {
        self.manager = manager
        self.drainPeriod = drainPeriod
        self.gracePeriod = gracePeriod
        self.logger = logger
        self.inFlight = { 0 }
        self.beginDraining = {}
    }

    /// Creates the service for the manager of `routes`, whose `readyz` answers 503 from the start of the drain and
    /// whose requests in flight the `shutdown started` line counts.
    ///
    /// - Parameters:
    ///   - routes: The routes; their manager is shut down.
    ///   - drainPeriod: How long links are still taken once shutdown began. Default 0.
    ///   - gracePeriod: How long in-flight resolutions may take once the manager stopped taking links. Default 10 s.
    ///   - logger: Where the shutdown lines go. Default: nowhere.
    public init(routes: LinkRoutes, drainPeriod: Duration = .zero, gracePeriod: Duration = .seconds(10), logger: Logger? = nil) {
        self.manager = routes.manager
        self.drainPeriod = drainPeriod
        self.gracePeriod = gracePeriod
        self.logger = logger
        self.inFlight = { routes.requestsInFlight }
        self.beginDraining = { routes.beginDraining() }
    }

    /// Waits for graceful shutdown (or cancellation), drains, then shuts the manager down.
    public func run() async throws {
        // Throws only when the task is cancelled: the manager is shut down either way (at once, then).
        let cancelled = (try? await gracefulShutdown()) == nil
        beginDraining()
        let started = ContinuousClock.now
        logger?.info(
            "shutdown started",
            metadata: [
                "link.inFlight": .stringConvertible(inFlight()),
                "shutdown.drain": .string(DurationText.rounded(drainPeriod)),
                "shutdown.grace": .string(DurationText.rounded(gracePeriod)),
            ]
        )
        if !cancelled && drainPeriod > .zero {
            // Cancelled (a second signal, or the group's own limit): the drain ends at once.
            try? await Task.sleep(for: drainPeriod)
            logger?.info("drain finished", metadata: ["link.inFlight": .stringConvertible(inFlight())])
        }
        await manager.shutdown(gracePeriod: gracePeriod)
        logger?.info(
            "shutdown finished",
            metadata: ["shutdown.duration": .string(DurationText.rounded(ContinuousClock.now - started))]
        )
    }
}
