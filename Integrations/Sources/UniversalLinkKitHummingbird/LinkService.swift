import Foundation
public import Hummingbird
import HTTPTypes
import LinkRouting
public import Logging
import NIOCore
import PostgresNIO
import Prometheus
import ServiceLifecycle
public import Tracing
public import UnixSignals
public import UniversalLinkKit
import UniversalLinkKitLogging
import UniversalLinkKitMetrics
public import UniversalLinkKitPostgres
import UniversalLinkKitTracing

/// The whole `link-service`: a manager configured from a ``LinkServiceConfiguration``, its logs and Prometheus
/// metrics, ``LinkRoutes`` with the probes, `GET /metrics`, the connection limits, and the shutdown order.
///
/// `link-service`'s `main` is `try await LinkService(configuration: .init(), logger: logger).run()`; tests drive
/// ``application`` with HummingbirdTesting.
///
/// Routes: those of ``LinkRoutes`` at the root (`/open`, `/resolve`, `/healthz`, `/readyz`) and `GET /metrics`,
/// the Prometheus text exposition of the `ulk_` metrics.
///
/// Connections: Hummingbird's idle timeout (``LinkServiceConfiguration/idleTimeout``), a header-read timeout
/// (``LinkServiceConfiguration/headerTimeout``), and at most ``LinkServiceConfiguration/maximumConnections`` open:
/// a new connection beyond closes the oldest idle one (a `warning` line says so, at most every 10 s), so a flood of
/// idle connections neither exhausts the file descriptors nor keeps `/healthz` out.
///
/// Claims: with ``LinkServiceConfiguration/postgresURL``, the manager shares click claims with every replica on
/// that database through a ``UniversalLinkKitPostgres/PostgresClaimStore`` (``claimStore``). ``run(gracefulShutdownSignals:)``
/// first creates the table if missing, and throws ``LinkServiceConfiguration/Error`` naming `ULK_POSTGRES_URL`
/// when the database cannot be reached within ``startupTimeout``; `readyz` then reports the database's reach
/// (`503` when it is unreachable and ``LinkServiceConfiguration/claimsOnFailure`` is `reject`; `200` with a note
/// with `local`, since the service still answers), and `/metrics` has the store's `ulk_claim*` metrics.
///
/// Tracing: each request runs in a server span that continues the caller's trace, with one `link.resolve` span per
/// resolution under it, through ``tracer``: by default (``LinkServiceConfiguration/tracing`` `w3c`) a
/// `W3CTracer` that reads `traceparent` and logs each span at `debug`; pass your own tracer to `init` to send spans
/// to a backend. Nothing trace-related is sent to the Response Handler.
public struct LinkService: Sendable {
    /// How long startup waits for the claims database before giving up.
    public static let startupTimeout: Duration = .seconds(5)


    /// The settings.
    public let configuration: LinkServiceConfiguration
    /// The manager every request goes through.
    public let manager: LinkManager
    /// The routes mounted at the root.
    public let routes: LinkRoutes
    /// The service's logger: startup and shutdown lines, one `info` line per handled link, the manager's events
    /// at `debug` / `trace`.
    public let logger: Logger
    /// The shared claim store, with ``LinkServiceConfiguration/postgresURL``.
    public let claimStore: PostgresClaimStore?
    /// The tracer of the request and resolution spans.
    public let tracer: any Tracer
    private let postgres: PostgresClient?
    private let registry: PrometheusCollectorRegistry
    private let connections: ConnectionGuard

    /// Builds the service.
    ///
    /// - Parameters:
    ///   - configuration: The settings.
    ///   - logger: The service's logger.
    ///   - tracer: The tracer of the spans, for example `InstrumentationSystem.tracer` once a host bootstrapped
    ///     its own. Default: by ``LinkServiceConfiguration/tracing``, a `W3CTracer` logging to `logger` (`w3c`) or
    ///     `InstrumentationSystem.tracer` (`off`).
    /// - Throws: ``LinkServiceConfiguration/Error`` for `ULK_ROUTES_FILE` when the route table cannot be read or
    ///   is not one.
    public init(
        configuration: LinkServiceConfiguration, logger: Logger = Logger(label: "link-service"), tracer: (any Tracer)? = nil
    ) throws(LinkServiceConfiguration.Error) {
        self.configuration = configuration
        self.logger = logger
        let tracer = tracer ?? {
            switch configuration.tracing {
            case .w3c: W3CTracer.logging(to: logger)
            case .off: InstrumentationSystem.tracer
            }
        }()
        self.tracer = tracer
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[LinkEventMetrics.durationLabel] = Self.durationBuckets(deadline: configuration.timeout)
        factory.durationHistogramBuckets[PostgresClaimStore.latencyLabel] = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1),
        ]
        let metrics = LinkEventMetrics(factory: factory)
        let events = LinkEventLogger(logger: logger, logsFullURLs: configuration.logsFullURLs)
        let spans = LinkEventTracer(tracer: tracer)

        var managerConfiguration = LinkManager.Configuration()
        managerConfiguration.resolution.policy.brandedDomains = configuration.resolvedHosts
        managerConfiguration.resolution.timeout = configuration.timeout
        managerConfiguration.duplicateWindow = configuration.duplicateWindow
        if let url = configuration.postgresURL {
            var clientConfiguration = url.clientConfiguration
            clientConfiguration.options.connectTimeout = .seconds(2)
            let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: logger)
            let store: PostgresClaimStore
            do {
                store = try PostgresClaimStore(
                    client: client,
                    // A stalled database may take at most a quarter of a resolution's time, never its whole deadline.
                    configuration: .init(
                        secret: configuration.claimSecret ?? [], duplicateWindow: configuration.duplicateWindow,
                        operationTimeout: min(.seconds(1), configuration.timeout / 4)),
                    metrics: factory,
                    logger: logger
                )
            } catch {
                throw .init(variable: "ULK_CLAIM_SECRET", message: error.message)
            }
            managerConfiguration.claimStore = store
            managerConfiguration.claimStoreFailure = configuration.claimsOnFailure
            postgres = client
            claimStore = store
        } else {
            postgres = nil
            claimStore = nil
        }
        if configuration.allowsLocalHosts {
            managerConfiguration.resolution.policy.allowsLocalHosts = true
            managerConfiguration.resolution.policy.allowsHTTP = true
        }
        managerConfiguration.eventHandler = LinkEventHandler { event in
            events.log(event)
            metrics.record(event)
            spans.record(event)
        }
        manager = LinkManager(
            configuration: managerConfiguration,
            router: try configuration.routesFile.map(Self.loadRouter(from:))
        )
        routes = LinkRoutes(
            manager: manager,
            configuration: .init(
                timeout: configuration.timeout, includesProbes: true, logsFullURLs: configuration.logsFullURLs,
                readinessCheck: claimStore.map { Self.readiness(of: $0, failure: configuration.claimsOnFailure) }
            )
        )
        self.registry = registry
        connections = ConnectionGuard(limit: configuration.maximumConnections, logger: logger)
    }

    /// The HTTP application: the routes, `/metrics`, and the guarded HTTP/1 server. Its services do not include
    /// the manager's shutdown: ``run(gracefulShutdownSignals:)`` runs ``managerService`` after it.
    public var application: some ApplicationProtocol {
        let router = Router()
        // The caller's trace continues.
        router.add(middleware: LinkTracingMiddleware(tracer: tracer))
        routes.add(to: router)
        let registry = registry
        router.get("/metrics") { _, _ in
            var text: [UInt8] = []
            registry.emit(into: &text)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: text))
            )
        }
        return Application(
            router: router,
            server: .guardedHTTP1(
                idleTimeout: configuration.idleTimeout, headerTimeout: configuration.headerTimeout, connections: connections
            ),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "link-service"),
            logger: logger
        )
    }

    /// The manager's shutdown as a service, with the service's logger.
    public var managerService: LinkManagerService {
        LinkManagerService(routes: routes, gracePeriod: configuration.shutdownGracePeriod, logger: logger)
    }

    /// Serves until one of the signals, then shuts down within the grace period plus one second: the manager first
    /// (`/readyz` 503, new links `503 shuttingDown`, links in flight finish or are cancelled at the end of the grace
    /// period and answered `503 shuttingDown`), then the HTTP server, which has nothing left to wait for.
    ///
    /// - Parameter gracefulShutdownSignals: The signals that start the shutdown. Default SIGTERM and SIGINT.
    /// - Throws: What the server throws (the port taken, ...).
    ///
    /// With a claims database, its client runs for as long as the services do (claims are published until the
    /// manager's shutdown is over), and the table is created first.
    ///
    /// - Throws: ``LinkServiceConfiguration/Error`` naming `ULK_POSTGRES_URL` when the claims database cannot be
    ///   reached or migrated within ``startupTimeout``.
    public func run(gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint]) async throws {
        logStartup()
        guard let postgres, let claimStore else { return try await serve(gracefulShutdownSignals) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await postgres.run() }
            defer { group.cancelAll() }
            do {
                try await claimStore.migrate(within: Self.startupTimeout)
            } catch {
                throw LinkServiceConfiguration.Error(
                    variable: "ULK_POSTGRES_URL",
                    message: "cannot use the claims database \(configuration.postgresURL?.redacted ?? "")"
                        + " (\(error)); check that it is up and reachable and that the user may create tables"
                )
            }
            logger.info("claims shared through PostgreSQL", metadata: ["claims.table": .string(claimStore.configuration.tableName)])
            try await serve(gracefulShutdownSignals)
        }
    }

    private func serve(_ gracefulShutdownSignals: [UnixSignal]) async throws {
        var group = ServiceGroupConfiguration(
            services: [.init(service: application), .init(service: managerService)],
            gracefulShutdownSignals: gracefulShutdownSignals,
            logger: logger
        )
        // The backstop of the bound: whatever still runs then (a connection stuck in a write) is cancelled.
        group.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod + .milliseconds(700)
        group.maximumCancellationDuration = .milliseconds(200)
        try await ServiceGroup(configuration: group).run()
    }

    /// The startup lines: what is resolved, the limits, and a warning when full URLs are logged.
    func logStartup() {
        logger.info(
            "link-service configured",
            metadata: [
                "link.hosts": .string(configuration.resolvedHosts.joined(separator: ",")),
                "link.allowLocal": .stringConvertible(configuration.allowsLocalHosts),
                "link.timeout": .string(DurationText.rounded(configuration.timeout)),
                "shutdown.grace": .string(DurationText.rounded(configuration.shutdownGracePeriod)),
                "connections.limit": .stringConvertible(configuration.maximumConnections),
                "connections.fileDescriptorLimit": .stringConvertible(LinkServiceConfiguration.fileDescriptorLimit),
                "connections.idleTimeout": .string(DurationText.rounded(configuration.idleTimeout)),
                "connections.headerTimeout": .string(DurationText.rounded(configuration.headerTimeout)),
                "claims.store": .string(configuration.postgresURL?.redacted ?? "in-process"),
                "claims.onFailure": .string(configuration.claimsOnFailure == .reject ? "reject" : "local"),
                "claims.duplicateWindow": .string(DurationText.rounded(configuration.duplicateWindow)),
                "tracing": .string(configuration.tracing.rawValue),
            ]
        )
        if configuration.logsFullURLs {
            logger.warning(
                "ULK_LOG_FULL_URLS=1: logs carry full tracking links, with the query that identifies the recipient; for local debugging only"
            )
        }
    }

    /// `readyz` with a claim store: `503` when the database does not answer and the policy is `reject`; with
    /// `local`, `200` and a note, since links are still resolved (a load balancer that took every replica out when the
    /// database is down would turn a duplicate risk into an outage).
    static func readiness(of store: PostgresClaimStore, failure: ClaimStoreFailurePolicy) -> @Sendable () async -> LinkRoutes.Readiness {
        { () async -> LinkRoutes.Readiness in
            do {
                try await store.checkReachable()
                return .init(isReady: true, detail: "ready")
            } catch {
                if failure == .reject { return .init(isReady: false, detail: "claim store unreachable") }
                return .init(isReady: true, detail: "ready (claim store unreachable: resolving with local claims)")
            }
        }
    }

    /// The resolution-duration histogram's buckets: Prometheus' usual ladder under the deadline, then the deadline
    /// itself, 10 % past it (where timed-out resolutions land) and twice it, so no resolution falls only in `+Inf`.
    static func durationBuckets(deadline: Duration) -> [Duration] {
        let ladder: [Duration] = [
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
            .seconds(25), .seconds(50), .seconds(100), .seconds(250), .seconds(500), .seconds(1000), .seconds(2500),
        ]
        return ladder.filter { $0 < deadline } + [deadline, deadline * 1.1, deadline * 2]
    }

    /// Loads `ULK_ROUTES_FILE` into a router whose routes accept what the table says they accept.
    private static func loadRouter(from path: String) throws(LinkServiceConfiguration.Error) -> LinkRouter {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .init(variable: "ULK_ROUTES_FILE", message: "cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try RouteTable(json: data).makeRouter()
        } catch {
            throw .init(variable: "ULK_ROUTES_FILE", message: "\(path) is not a route table: \(error)")
        }
    }
}
