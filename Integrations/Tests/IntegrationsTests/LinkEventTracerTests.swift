import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryTracing
import Testing
import Tracing
import UniversalLinkKit
import UniversalLinkKitHummingbird
import UniversalLinkKitTesting
import UniversalLinkKitTracing

struct LinkEventTracerTests {
    /// A real resolution with a retry, inside a caller's span: one child span, its steps as events, no query.
    @Test func aResolutionIsOneChildSpanOfTheCallerWithItsStepsAsEventsAndNoQuery() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.enqueue([.status(503), .normal], for: "/pub/acc?_ri_=web")
        let tracer = InMemoryTracer()
        var configuration = LinkManager.Configuration()
        configuration.policy.allowsLocalHosts = true
        configuration.policy.allowsHTTP = true
        configuration.eventHandler = LinkEventTracer(tracer: tracer).handler
        let manager = LinkManager(configuration: configuration)

        let outcome = try await tracer.withAnySpan("GET /open") { _ in
            try await manager.resolve(stub.url("/pub/acc?_ri_=web"))
        }
        #expect(outcome.resolvedLink?.webLinkURL != nil)
        await manager.waitUntilIdle()

        let spans = tracer.finishedSpans
        let caller = try #require(spans.first { $0.operationName == "GET /open" })
        let resolution = try #require(spans.first { $0.operationName == "link.resolve" })
        #expect(spans.filter { $0.operationName == "link.resolve" }.count == 1)
        #expect(resolution.parentSpanID == caller.spanID)
        #expect(resolution.traceID == caller.traceID)
        #expect(resolution.events.map(\.name).contains("retrying"))
        #expect(resolution.events.filter { $0.name == "answered" }.count == 2)
        #expect(resolution.attributes["link.outcome"]?.toSpanAttribute() == "resolved")
        #expect(resolution.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        let described = "\(resolution.attributes)" + resolution.events.map { "\($0.attributes)" }.joined()
        #expect(!described.contains("_ri_"), "\(described)")
        #expect(described.contains("/pub/acc?…"))
    }

    @Test func aFailureEndsTheSpanWithAnErrorStatus() throws {
        let tracer = InMemoryTracer()
        let adapter = LinkEventTracer(tracer: tracer)
        let url = try #require(URL(string: "https://news.example.com/pub/acc?_ri_=1"))
        adapter.record(LinkEvent(.received, url: url))
        adapter.record(LinkEvent(.failed, url: url, duration: .seconds(10), errorCode: .timeout))
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.status?.code == .error)
        #expect(span.attributes["link.outcome"]?.toSpanAttribute() == "timeout")
        #expect(tracer.activeSpans.isEmpty)
    }

    /// The routes behind `LinkTracingMiddleware`: the request's span continues the caller's trace, the resolution's
    /// span is its child, and no attribute carries the tracking link's query.
    @Test func aRequestContinuesTheCallersTraceAndTheResolutionIsItsChild() async throws {
        let fixture = try ServiceFixture()
        let tracer = InMemoryTracer()
        var configuration = LinkManager.Configuration(brandedDomains: ["127.0.0.1"], timeout: .seconds(5))
        configuration.policy.allowsLocalHosts = true
        configuration.policy.allowsHTTP = true
        configuration.eventHandler = LinkEventTracer(tracer: tracer).handler
        let manager = LinkManager(configuration: configuration)
        let router = Router()
        router.add(middleware: LinkTracingMiddleware(tracer: tracer))
        LinkRoutes(manager: manager).add(to: router)
        let headers: HTTPFields = [
            try #require(HTTPField.Name(InMemoryTracer.traceIDKey)): "caller-trace",
            try #require(HTTPField.Name(InMemoryTracer.spanIDKey)): "caller-span",
        ]
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=deep"), method: .get, headers: headers)
            #expect(response.status == .found)
        }
        await manager.waitUntilIdle()
        let spans = tracer.finishedSpans
        let request = try #require(spans.first { $0.operationName == "GET /open" })
        let resolution = try #require(spans.first { $0.operationName == "link.resolve" })
        #expect(request.traceID == "caller-trace")
        #expect(request.parentSpanID == "caller-span")
        #expect(resolution.traceID == "caller-trace")
        #expect(resolution.parentSpanID == request.spanID)
        #expect(request.attributes["http.response.status_code"]?.toSpanAttribute() == 302)
        let described = spans.map { "\($0.attributes)" + $0.events.map { "\($0.attributes)" }.joined() }.joined()
        #expect(!described.contains("_ri_"), "\(described)")
        #expect(!described.contains("deep"))
    }
}
