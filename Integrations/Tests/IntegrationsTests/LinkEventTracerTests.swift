import Foundation
import InMemoryTracing
import Testing
import Tracing
import UniversalLinkKit
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
        configuration.resolution.policy.allowsLocalHosts = true
        configuration.resolution.policy.allowsHTTP = true
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
}
