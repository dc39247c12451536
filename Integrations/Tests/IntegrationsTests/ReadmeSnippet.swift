import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals
import UniversalLinkKit
import UniversalLinkKitHummingbird

/// Your app, with the link routes under /links, and the manager's shutdown after the server in the group.
func runApp() async throws {
    let logger = Logger(label: "my-app")
    let manager = LinkManager(configuration: .init(brandedDomains: ["news.example.com"], timeout: .seconds(5)))
    let links = LinkRoutes(manager: manager, configuration: .init(includesProbes: true))

    let router = Router()
    router.get("/hello") { _, _ in "hello" }
    links.add(to: router, atPath: "/links")  // GET /links/open, POST /links/resolve, GET /links/healthz, /links/readyz

    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)), logger: logger)
    let services = ServiceGroup(configuration: .init(
        // Reverse order on SIGTERM: the manager's grace period first, while the server still answers.
        services: [app, LinkManagerService(routes: links, gracePeriod: .seconds(10), logger: logger)],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger
    ))
    try await services.run()
}
