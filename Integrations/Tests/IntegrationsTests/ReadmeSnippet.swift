import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals
import UniversalLinkKit
import UniversalLinkKitHummingbird

/// Your app, with the link routes and their metrics under /links, and the manager's shutdown after the server in the
/// group.
func runApp() async throws {
    let logger = Logger(label: "my-app")
    let metrics = LinkMetrics(deadline: .seconds(5))  // the one line of set-up /links/metrics needs
    var configuration = LinkManager.Configuration(brandedDomains: ["news.example.com"], timeout: .seconds(5))
    configuration.eventHandler = metrics.eventHandler
    let manager = LinkManager(configuration: configuration)
    let links = LinkRoutes(manager: manager, configuration: .init(includesProbes: true, metrics: metrics))

    let router = Router()
    router.get("/hello") { _, _ in "hello" }
    links.add(to: router, atPath: "/links")  // GET /links/open, POST /links/resolve, GET /links/healthz, /readyz, /metrics

    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)), logger: logger)
    let services = ServiceGroup(configuration: .init(
        // Reverse order on SIGTERM: the drain and the grace period first, while the server still answers.
        services: [app, LinkManagerService(routes: links, drainPeriod: .seconds(5), gracePeriod: .seconds(10), logger: logger)],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger
    ))
    try await services.run()
}
