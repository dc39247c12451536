import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing
import Tracing
import UniversalLinkKit
import UniversalLinkKitHummingbird
import UniversalLinkKitService
import UniversalLinkKitTesting
import UniversalLinkKitTracing

/// The W3C trace context `link-service` continues by default: the header's grammar, the tracer's
/// parent-child ids and sampling, and the whole service, in process and as the built binary.
struct W3CTracerTests {
    static let callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let callerSpan = "00f067aa0ba902b7"
    static let sampled = "00-\(callerTrace)-\(callerSpan)-01"

    // MARK: The header

    @Test func aValidTraceparentIsReadWithItsFlagsAndState() throws {
        let context = try #require(TraceContext(traceparent: Self.sampled, tracestate: "congo=t61rcWkgMzE"))
        #expect(context.traceID == Self.callerTrace)
        #expect(context.spanID == Self.callerSpan)
        #expect(context.isSampled)
        #expect(context.state == "congo=t61rcWkgMzE")
        #expect(context.traceparent == Self.sampled)
        #expect(TraceContext(traceparent: "00-\(Self.callerTrace)-\(Self.callerSpan)-00")?.isSampled == false)
        // A later version is read as 00 when what follows starts with a dash.
        #expect(TraceContext(traceparent: "cc-\(Self.callerTrace)-\(Self.callerSpan)-01-what-the-future-holds")?.traceID == Self.callerTrace)
    }

    @Test(arguments: [
        "",
        "00-\(callerTrace)-\(callerSpan)",  // no flags
        "00-\(callerTrace.uppercased())-\(callerSpan)-01",  // upper case
        "ff-\(callerTrace)-\(callerSpan)-01",  // version ff
        "00-00000000000000000000000000000000-\(callerSpan)-01",  // zero trace id
        "00-\(callerTrace)-0000000000000000-01",  // zero span id
        "00-\(callerTrace)-\(callerSpan)-01-extra",  // version 00 is exactly 55 characters
        "cc-\(callerTrace)-\(callerSpan)-01x",  // a later version: more only after a dash
        "00-\(callerTrace)-\(callerSpan)-0g",  // not hex
        "00_\(callerTrace)_\(callerSpan)_01",  // not dashes
        "00-\(callerTrace)-\(callerSpan)-01, 00-\(callerTrace)-\(callerSpan)-01",  // two headers folded into one
    ])
    func anInvalidTraceparentIsNoContext(header: String) {
        #expect(TraceContext(traceparent: header) == nil)
    }

    @Test func aTracestateOverItsLimitIsDroppedAndTheTraceKept() throws {
        let long = String(repeating: "k=v,", count: 200)
        let context = try #require(TraceContext(traceparent: Self.sampled, tracestate: long))
        #expect(context.state == nil)
        #expect(context.traceID == Self.callerTrace)
    }

    // MARK: The tracer

    @Test func aSpanContinuesTheExtractedCallerAndItsChildContinuesIt() throws {
        let ended = Ended()
        let tracer = W3CTracer(onEnd: ended.append)
        var context = ServiceContext.topLevel
        tracer.extract(["traceparent": Self.sampled, "tracestate": "a=1"], into: &context, using: DictionaryExtractor())
        let server = tracer.startSpan("GET /open", context: context, ofKind: .server)
        let child = tracer.startSpan("link.resolve", context: server.context, ofKind: .client)
        child.end()
        server.end()
        server.end()  // a second end hands nothing over

        let spans = ended.spans
        #expect(spans.map(\.operationName) == ["link.resolve", "GET /open"])
        let (resolution, request) = (spans[0], spans[1])
        #expect(request.traceContext.traceID == Self.callerTrace)
        #expect(request.parentSpanID == Self.callerSpan)
        #expect(request.traceContext.spanID != Self.callerSpan)
        #expect(request.traceContext.state == "a=1")
        #expect(resolution.traceContext.traceID == Self.callerTrace)
        #expect(resolution.parentSpanID == request.traceContext.spanID)

        var headers: [String: String] = [:]
        tracer.inject(server.context, into: &headers, using: DictionaryInjector())
        #expect(headers["traceparent"] == "00-\(Self.callerTrace)-\(request.traceContext.spanID)-01")
        #expect(headers["tracestate"] == "a=1")
    }

    @Test func withoutACallerASpanStartsANewSampledTrace() throws {
        let ended = Ended()
        let tracer = W3CTracer(onEnd: ended.append)
        var context = ServiceContext.topLevel
        tracer.extract(["traceparent": "garbage"], into: &context, using: DictionaryExtractor())
        tracer.startSpan("a", context: context, ofKind: .server).end()
        tracer.startSpan("b", context: context, ofKind: .server).end()
        let spans = ended.spans
        #expect(spans.count == 2)
        #expect(spans.allSatisfy { $0.parentSpanID == nil && $0.traceContext.isSampled })
        #expect(spans[0].traceContext.traceID != spans[1].traceContext.traceID)
        #expect(spans.allSatisfy { TraceContext(traceparent: $0.traceContext.traceparent) != nil })
    }

    @Test func anUnsampledCallerIsContinuedButNotRecorded() throws {
        let ended = Ended()
        let tracer = W3CTracer(onEnd: ended.append)
        var context = ServiceContext.topLevel
        tracer.extract(["traceparent": "00-\(Self.callerTrace)-\(Self.callerSpan)-00"], into: &context, using: DictionaryExtractor())
        let span = tracer.startSpan("GET /open", context: context, ofKind: .server)
        #expect(!span.isRecording)
        #expect(span.context.traceContext?.traceID == Self.callerTrace)
        span.end()
        #expect(ended.spans.isEmpty)
    }

    @Test func theLogLineOfASpanCarriesItsIdsAndNoErrorText() throws {
        let ended = Ended()
        let tracer = W3CTracer(onEnd: ended.append)
        var context = ServiceContext.topLevel
        tracer.extract(["traceparent": Self.sampled], into: &context, using: DictionaryExtractor())
        let span = tracer.startSpan("link.resolve", context: context, ofKind: .client)
        span.attributes["link.outcome"] = "timeout"
        span.addEvent("retrying")
        span.recordError(Leaky())
        span.setStatus(.init(code: .error))
        span.end()
        let metadata = try #require(ended.spans.first).logMetadata
        #expect(metadata["trace_id"] == .string(Self.callerTrace))
        #expect(metadata["parent_span_id"] == .string(Self.callerSpan))
        #expect(metadata["span.name"] == .string("link.resolve"))
        #expect(metadata["span.events"] == .string("retrying"))
        #expect(metadata["span.status"] == .string("error"))
        #expect(metadata["link.outcome"] == .string("timeout"))
        #expect(!"\(metadata)".contains("SECRET"))
    }

    // MARK: The service

    /// The whole application in process: the request's span continues the caller, the resolution is its child,
    /// and the Response Handler receives no trace header.
    @Test func theServiceContinuesTheCallerAndSendsNothingTraceRelatedUpstream() async throws {
        let fixture = try ServiceFixture()
        defer { fixture.stub.shutdown() }
        let ended = Ended()
        let service = try LinkService(
            configuration: fixture.configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
            tracer: W3CTracer(onEnd: ended.append)
        )
        let headers: HTTPFields = [
            try #require(HTTPField.Name("traceparent")): Self.sampled,
            try #require(HTTPField.Name("tracestate")): "congo=t61rcWkgMzE",
        ]
        try await service.application.test(.router) { client in
            let response = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=deep"), method: .get, headers: headers)
            #expect(response.status == .found)
        }
        await service.manager.waitUntilIdle()
        let spans = ended.spans
        let request = try #require(spans.first { $0.operationName == "GET /open" })
        let resolution = try #require(spans.first { $0.operationName == "link.resolve" })
        #expect(request.traceContext.traceID == Self.callerTrace)
        #expect(request.parentSpanID == Self.callerSpan)
        #expect(resolution.traceContext.traceID == Self.callerTrace)
        #expect(resolution.parentSpanID == request.traceContext.spanID)
        let upstream = fixture.stub.requests
        #expect(upstream.count == 1)
        #expect(upstream.allSatisfy { $0.header("traceparent") == nil })
        #expect(upstream.allSatisfy { $0.header("tracestate") == nil })
    }

    /// The built binary, as an operator runs it at `debug`: the handled line carries the caller's `trace_id`,
    /// both spans are logged under it; with `ULK_TRACING=off` nothing is.
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func theBinaryLogsItsSpansUnderTheCallersTrace(tracing: Bool) async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        var environment = LinkServiceProcessTests.local.merging(["LOG_LEVEL": "debug"]) { $1 }
        if !tracing { environment["ULK_TRACING"] = "off" }
        let service = try ServiceProcess(environment: environment)
        defer { service.stop() }
        let port = try await service.port()
        let response = try await LoopbackHTTP.send(
            "http://127.0.0.1:\(port)/resolve", headers: [("traceparent", Self.sampled)],
            body: Data(#"{"url": "\#(stub.url("/pub/acc?_ri_=deep").absoluteString)"}"#.utf8))
        #expect(response.status == 200)
        service.signal(SIGTERM)
        #expect(await service.exitStatus() == 0)
        let lines = await service.finalLog().split(separator: "\n")
        let handled = try #require(lines.first { $0.contains("link handled") })
        let spanLines = lines.filter { $0.hasSuffix("] span") }
        if tracing {
            #expect(handled.contains("trace_id=\(Self.callerTrace)"))
            #expect(spanLines.count == 2)
            #expect(spanLines.allSatisfy { $0.contains("trace_id=\(Self.callerTrace)") })
            #expect(spanLines.contains { $0.contains("span.name=POST /resolve") && $0.contains("parent_span_id=\(Self.callerSpan)") })
            #expect(spanLines.contains { $0.contains("span.name=link.resolve") })
            #expect(!lines.joined().contains("_ri_=deep"))
        } else {
            #expect(!handled.contains("trace_id="))
            #expect(spanLines.isEmpty)
        }
        #expect(stub.requests.allSatisfy { $0.header("traceparent") == nil })
    }
}

/// An error whose description names a recipient, as a transport error may.
private struct Leaky: Error, CustomStringConvertible {
    var description: String { "https://news.example.com/pub/acc?_ri_=SECRET timed out" }
}

/// The spans a test tracer handed over, in order.
private final class Ended: Sendable {
    private let list = Mutex<[W3CTracer.FinishedSpan]>([])
    var spans: [W3CTracer.FinishedSpan] { list.withLock { $0 } }
    @Sendable func append(_ span: W3CTracer.FinishedSpan) { list.withLock { $0.append(span) } }
}

private struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
}

private struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
}
