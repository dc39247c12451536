import Foundation
public import Hummingbird
import HTTPTypes
import LinkRouting
public import Logging
import NIOCore
import ServiceLifecycle
public import Tracing
public import UnixSignals
public import UniversalLinkKit
public import UniversalLinkKitHummingbird
import UniversalLinkKitLogging
import UniversalLinkKitMetrics
public import UniversalLinkKitPostgres
import UniversalLinkKitTracing
#if canImport(Glibc)
import Glibc
#endif

/// The whole `link-service`: a manager configured from a ``LinkServiceConfiguration``, its logs and Prometheus
/// metrics, `LinkRoutes` with the probes and `GET /metrics`, the connection limits, the claims database, and the
/// shutdown order.
///
/// `link-service`'s `main` is `try await LinkService(configuration: .init(), logger: logger).run()`; tests drive
/// ``application`` with HummingbirdTesting.
///
/// Routes: those of `LinkRoutes` at the root (`/open`, `/resolve`, `/healthz`, `/readyz`, `/metrics`, the
/// Prometheus text exposition of the `ulk_` metrics).
///
/// Connections: Hummingbird's idle timeout (``LinkServiceConfiguration/idleTimeout``), a header-read timeout
/// (``LinkServiceConfiguration/headerTimeout``), a body timeout (``LinkServiceConfiguration/bodyTimeout``), a
/// declared body over the limit refused at once, HTTP/1.0 closed after its answer unless it asks to keep the
/// connection, and at most ``LinkServiceConfiguration/maximumConnections`` open: a new connection beyond closes the
/// oldest idle one, else the one that has been sending its request longest (a `warning` line says which, at most
/// every 10 s), so no flood keeps `/healthz` out.
///
/// Claims: with ``LinkServiceConfiguration/postgresURL``, the manager shares click claims with every replica on
/// that database through a `PostgresClaimStore` (``claimStore``). ``run(gracefulShutdownSignals:)`` first creates
/// the table if missing, and throws ``LinkServiceConfiguration/Error`` naming `ULK_POSTGRES_URL` when the database
/// cannot be reached or used within ``startupTimeout``; `readyz` then reports the database's reach (`503` when it is
/// unreachable and ``LinkServiceConfiguration/claimsOnFailure`` is `reject`; `200` with a note with `local`, since
/// the service still answers), and `/metrics` has the store's `ulk_claim*` metrics.
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
    /// The metrics `/metrics` exposes.
    public let metrics: LinkMetrics
    /// The manager's transport, trusting ``LinkServiceConfiguration/caFile``; `nil` where libcurl cannot be loaded.
    private let transport: CurlTransport?
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
        let metrics = LinkMetrics(deadline: configuration.timeout)
        let counts = metrics.eventHandler
        let events = LinkEventLogger(logger: logger, logsFullURLs: configuration.logsFullURLs)
        let spans = LinkEventTracer(tracer: tracer)

        var managerConfiguration = LinkManager.Configuration()
        managerConfiguration.policy.brandedDomains = configuration.resolvedHosts
        managerConfiguration.timeout = configuration.timeout
        managerConfiguration.duplicateWindow = configuration.duplicateWindow
        if let url = configuration.postgresURL {
            // A stalled database may take at most a quarter of a resolution's time, never its whole deadline.
            let storeConfiguration = PostgresClaimStore.Configuration(
                secret: configuration.claimSecret ?? [], duplicateWindow: configuration.duplicateWindow,
                operationTimeout: min(.seconds(1), configuration.timeout / 4), connectTimeout: .seconds(2))
            do {
                try storeConfiguration.validate()
            } catch {
                throw .init(variable: "ULK_CLAIM_SECRET", message: error.message)
            }
            let store: PostgresClaimStore
            do {
                store = try PostgresClaimStore(url: url, configuration: storeConfiguration, metrics: metrics.factory, logger: logger)
            } catch {
                throw .init(variable: "ULK_POSTGRES_URL", message: error.message)
            }
            managerConfiguration.claimStore = store
            managerConfiguration.claimStoreFailure = configuration.claimsOnFailure
            claimStore = store
        } else {
            claimStore = nil
        }
        if configuration.allowsLocalHosts {
            managerConfiguration.policy.allowsLocalHosts = true
            managerConfiguration.policy.allowsHTTP = true
        }
        managerConfiguration.eventHandler = LinkEventHandler { event in
            events.log(event)
            counts(event)
            spans.record(event)
        }
        // The service's own transport: the CA file's roots and the per-host limit. It stops with the service.
        let transport = CurlTransport.make(configuration: .init(
            maximumConcurrentRequestsPerHost: configuration.maximumConcurrentRequestsPerHost, caFile: configuration.caFile))
        self.transport = transport
        manager = LinkManager(
            configuration: managerConfiguration,
            transport: transport,
            router: try configuration.routesFile.map(Self.loadRouter(from:))
        )
        routes = LinkRoutes(
            manager: manager,
            configuration: .init(
                timeout: configuration.timeout, includesProbes: true, logsFullURLs: configuration.logsFullURLs,
                readinessCheck: claimStore.map { Self.readiness(of: $0, failure: configuration.claimsOnFailure) },
                metrics: metrics
            )
        )
        self.metrics = metrics
        connections = ConnectionGuard(limit: configuration.maximumConnections, logger: logger)
    }

    /// The HTTP application: the routes, `/metrics`, and the guarded HTTP/1 server. Its services do not include
    /// the manager's shutdown: ``run(gracefulShutdownSignals:)`` runs ``managerService`` after it.
    public var application: some ApplicationProtocol {
        let router = Router()
        // The caller's trace continues.
        router.add(middleware: LinkTracingMiddleware(tracer: tracer))
        routes.add(to: router)
        return Application(
            router: router,
            server: .guardedHTTP1(
                idleTimeout: configuration.idleTimeout, headerTimeout: configuration.headerTimeout,
                bodyTimeout: configuration.bodyTimeout, maximumBodySize: routes.configuration.maximumBodySize,
                connections: connections
            ),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "link-service"),
            logger: logger
        )
    }

    /// The manager's shutdown as a service, with the service's logger: the drain, then the grace period.
    public var managerService: LinkManagerService {
        LinkManagerService(
            routes: routes, drainPeriod: configuration.drainPeriod, gracePeriod: configuration.shutdownGracePeriod, logger: logger)
    }

    /// Serves until one of the signals, then shuts down within the drain and grace periods plus one second: `/readyz`
    /// answers 503 at once while links are still resolved for the drain period; then the manager stops taking links
    /// (new ones `503 shuttingDown`), links in flight finish or are cancelled at the end of the grace period and
    /// answered `503 shuttingDown`; then the HTTP server closes, with nothing left to wait for.
    ///
    /// With a claims database, the store runs for as long as the services do (claims are published until the
    /// manager's shutdown is over), and the table is created first.
    ///
    /// - Parameter gracefulShutdownSignals: The signals that start the shutdown. Default SIGTERM and SIGINT.
    /// - Throws: ``LinkServiceConfiguration/Error`` naming `PORT` when the address is already in use, or
    ///   `ULK_POSTGRES_URL` when the claims database cannot be reached or used within ``startupTimeout``; what the
    ///   server throws otherwise.
    public func run(gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint]) async throws {
        try Self.checkAvailable(host: configuration.host, port: configuration.port)
        guard let claimStore else {
            logStartup()
            return try await serve(gracefulShutdownSignals)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await claimStore.run() }
            defer { group.cancelAll() }
            do {
                try await claimStore.migrate(within: Self.startupTimeout)
            } catch let error as PostgresClaimStoreError where error.code == .permissionDenied {
                throw LinkServiceConfiguration.Error(variable: "ULK_POSTGRES_URL", message: error.message)
            } catch let error as PostgresClaimStoreError {
                throw LinkServiceConfiguration.Error(
                    variable: "ULK_POSTGRES_URL",
                    message: "cannot use the claims database \(configuration.postgresURL?.redacted ?? ""): \(error.message)"
                )
            } catch {
                throw LinkServiceConfiguration.Error(
                    variable: "ULK_POSTGRES_URL",
                    message: "cannot use the claims database \(configuration.postgresURL?.redacted ?? ""): \(error);"
                        + " check that it is up and reachable"
                )
            }
            // After the database was found usable: a service that cannot start says only why.
            logStartup()
            logger.info("claims shared through PostgreSQL", metadata: ["claims.table": .string(claimStore.configuration.tableName)])
            try await serve(gracefulShutdownSignals)
        }
    }

    private func serve(_ gracefulShutdownSignals: [UnixSignal]) async throws {
        // Released once the manager's shutdown is over: nothing sends through it any more.
        defer { transport?.shutdown() }
        var group = ServiceGroupConfiguration(
            services: [.init(service: application), .init(service: managerService)],
            gracefulShutdownSignals: gracefulShutdownSignals,
            logger: logger
        )
        // The backstop of the bound: whatever still runs then (a connection stuck in a write) is cancelled.
        group.maximumGracefulShutdownDuration = configuration.drainPeriod + configuration.shutdownGracePeriod + .milliseconds(700)
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
                "shutdown.drain": .string(DurationText.rounded(configuration.drainPeriod)),
                "shutdown.grace": .string(DurationText.rounded(configuration.shutdownGracePeriod)),
                "connections.limit": .stringConvertible(configuration.maximumConnections),
                "connections.fileDescriptorLimit": .stringConvertible(LinkServiceConfiguration.fileDescriptorLimit),
                "connections.idleTimeout": .string(DurationText.rounded(configuration.idleTimeout)),
                "connections.headerTimeout": .string(DurationText.rounded(configuration.headerTimeout)),
                "connections.bodyTimeout": .string(DurationText.rounded(configuration.bodyTimeout)),
                "claims.store": .string(configuration.postgresURL?.redacted ?? "in-process"),
                "claims.onFailure": .string(configuration.claimsOnFailure == .reject ? "reject" : "local"),
                "claims.duplicateWindow": .string(DurationText.rounded(configuration.duplicateWindow)),
                "tracing": .string(configuration.tracing.rawValue),
                "transport.caFile": .string(configuration.caFile ?? "system roots"),
                "transport.perHost": .stringConvertible(configuration.maximumConcurrentRequestsPerHost),
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

    /// Refuses an address already in use before anything starts (a process already listening there), so that the
    /// operator reads one line naming it rather than a bind error after the shutdown lines.
    static func checkAvailable(host: String, port: Int) throws(LinkServiceConfiguration.Error) {
        guard port != 0, let address = try? SocketAddress.makeAddressResolvingHost(host, port: port) else { return }
        let descriptor = socket(Int32(address.protocol.rawValue), Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // As the server binds: with SO_REUSEADDR, so that connections closing in TIME_WAIT do not count as in use.
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.withSockAddr { pointer, size in bind(descriptor, pointer, socklen_t(size)) }
        guard bound != 0, errno == EADDRINUSE else { return }
        let place = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        throw LinkServiceConfiguration.Error(
            variable: "PORT",
            message: "\(place) is already in use by another process: stop it, or set PORT (or HOST) to a free address"
        )
    }
}
