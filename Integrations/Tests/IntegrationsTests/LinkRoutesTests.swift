import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import UniversalLinkKit
import UniversalLinkKitHummingbird
import UniversalLinkKitTesting

/// The routes mounted in an app of one's own, under a prefix, beside its own routes.
struct LinkRoutesTests {
    static func manager() -> LinkManager {
        var configuration = LinkManager.Configuration(brandedDomains: ["127.0.0.1"], timeout: .seconds(5))
        configuration.policy.allowsLocalHosts = true
        configuration.policy.allowsHTTP = true
        return LinkManager(configuration: configuration)
    }

    @Test func theRoutesAnswerUnderTheirPrefixBesideTheAppsOwn() async throws {
        let fixture = try ServiceFixture()
        let router = Router()
        router.get("/hello") { _, _ in "hello" }
        LinkRoutes(manager: Self.manager()).add(to: router, atPath: "/links")
        try await Application(router: router).test(.router) { client in
            let open = try await client.execute(uri: "/links" + fixture.openPath("/pub/acc?_ri_=deep"), method: .get)
            #expect(open.status == .found)
            #expect(open.headers[.location] == "example-app://products/1")
            let resolve = try await client.execute(
                uri: "/links/resolve", method: .post, body: ByteBuffer(string: #"{"url": "\#(fixture.link("/pub/acc?_ri_=web"))"}"#))
            #expect(try JSON(resolve.body)["webLinkURL"] as? String == "https://www.example.com/products/2")
            #expect(try await client.execute(uri: "/hello", method: .get).status == .ok)
            // Not at the root, and no probes unless asked for.
            #expect(try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=deep"), method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/links/healthz", method: .get).status == .notFound)
        }
    }

    @Test func theProbesSayReadyUntilTheManagerShutsDownAndAliveThroughout() async throws {
        let manager = Self.manager()
        let router = Router()
        LinkRoutes(manager: manager, configuration: .init(includesProbes: true)).add(to: router, atPath: "/links")
        try await Application(router: router).test(.router) { client in
            #expect(try await client.execute(uri: "/links/readyz", method: .get).status == .ok)
            await manager.shutdown(gracePeriod: .zero)
            #expect(try await client.execute(uri: "/links/readyz", method: .get).status == .serviceUnavailable)
            #expect(try await client.execute(uri: "/links/healthz", method: .get).status == .ok)
            let open = try await client.execute(
                uri: "/links/open?url=" + ServiceFixture.encoded("http://127.0.0.1:1/pub/acc?_ri_=x"), method: .get)
            #expect(open.status == .serviceUnavailable)
            #expect(try errorCode(open) == "shuttingDown")
        }
    }

    /// The README's one line of set-up: `LinkMetrics` given to the manager and to the routes mounts `/metrics`.
    @Test func withLinkMetricsTheRoutesExposeTheManagersMetrics() async throws {
        let fixture = try ServiceFixture()
        let metrics = LinkMetrics(deadline: .seconds(5))
        var configuration = LinkManager.Configuration(brandedDomains: ["127.0.0.1"], timeout: .seconds(5))
        configuration.policy.allowsLocalHosts = true
        configuration.policy.allowsHTTP = true
        configuration.eventHandler = metrics.eventHandler
        let router = Router()
        LinkRoutes(manager: LinkManager(configuration: configuration), configuration: .init(metrics: metrics))
            .add(to: router, atPath: "/links")
        try await Application(router: router).test(.router) { client in
            _ = try await client.execute(uri: "/links" + fixture.openPath("/pub/acc?_ri_=deep"), method: .get)
            let response = try await client.execute(uri: "/links/metrics", method: .get)
            #expect(response.status == .ok)
            let text = String(buffer: response.body)
            #expect(text.contains(#"ulk_links_total{outcome="resolved"} 1"#), "\(text)")
            #expect(text.contains("# TYPE ulk_resolution_duration_seconds histogram"))
        }
    }
}
