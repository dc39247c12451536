public import Hummingbird
import HTTPTypes
public import Tracing

/// Continues the caller's trace: extracts the trace context of an incoming request with the tracer's own
/// propagation (W3C `traceparent` with `W3CTracer` or swift-otel), and runs the request in a server span, so that the
/// `link.resolve` spans of `UniversalLinkKitTracing`'s `LinkEventTracer` are its children.
///
/// Unlike Hummingbird's `TracingMiddleware`, the span carries no `url.query`: `/open?url=` holds a tracking link
/// whose query identifies the recipient. Attributes: `http.request.method`, `url.path`,
/// `http.response.status_code`. Nothing is injected into the requests to the Response Handler.
public struct LinkTracingMiddleware<Context: RequestContext>: RouterMiddleware {
    private let tracer: any Tracer

    /// Creates the middleware.
    ///
    /// - Parameter tracer: The tracer; by default the one `InstrumentationSystem` was bootstrapped with.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    /// Runs the request in a span continuing the caller's trace.
    public func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var serviceContext = ServiceContext.current ?? .topLevel
        tracer.extract(request.headers, into: &serviceContext, using: HTTPFieldsExtractor())
        return try await tracer.withAnySpan("\(request.method.rawValue) \(request.uri.path)", context: serviceContext, ofKind: .server) { span in
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["url.path"] = request.uri.path
            let response = try await next(request, context)
            span.attributes["http.response.status_code"] = Int(response.status.code)
            return response
        }
    }
}

/// Reads trace headers from `HTTPFields`.
private struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from carrier: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { carrier[$0] }
    }
}
