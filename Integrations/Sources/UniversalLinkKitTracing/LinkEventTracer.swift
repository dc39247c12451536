import Foundation
import Synchronization
public import Tracing
public import UniversalLinkKit
import UniversalLinkKitLogging

/// Turns the ``UniversalLinkKit/LinkEvent``s of a `LinkManager` into swift-distributed-tracing spans: one span,
/// `link.resolve`, per resolution, from `received` to `resolved` / `failed` / `refused`, with the request's steps
/// as span events (`requestSent`, `answered`, `retrying`, `redirected`).
///
/// ```swift
/// var configuration = LinkManager.Configuration(brandedDomains: ["news.example.com"])
/// configuration.eventHandler = LinkEventTracer().handler
/// ```
///
/// The span is a child of the `ServiceContext` of the task that handed the link in (an HTTP request's, when the
/// server continues the caller's trace). Attributes: `link.url` (without query, fragment or credentials: the query
/// identifies the recipient), `link.outcome` (`resolved` or the `LinkError.Code`), `link.attempts`,
/// `http.response.status_code` (the last answer's). Nothing is sent upstream: the Response Handler never sees a
/// trace header.
///
/// Spans are keyed by the link: the manager coalesces concurrent activations of one link into one resolution, so
/// at most one span per link is open.
public final class LinkEventTracer: Sendable {
    private let tracer: any Tracer
    private let spans = Mutex<[String: any Span]>([:])

    /// Creates an adapter.
    ///
    /// - Parameter tracer: The tracer spans are started with. Default: the one `InstrumentationSystem` was
    ///   bootstrapped with.
    public init(tracer: any Tracer = InstrumentationSystem.tracer) {
        self.tracer = tracer
    }

    /// The handler to set as the manager's event handler.
    public var handler: LinkEventHandler {
        LinkEventHandler { [self] event in record(event) }
    }

    /// Starts, annotates or ends the span of the event's link.
    ///
    /// - Parameter event: The event.
    public func record(_ event: LinkEvent) {
        let key = event.url.absoluteString
        switch event.kind {
        case .received:
            let span = tracer.startAnySpan("link.resolve", context: ServiceContext.current ?? .topLevel, ofKind: .client)
            span.attributes["link.url"] = event.url.loggedString()
            let previous = spans.withLock { $0.updateValue(span, forKey: key) }
            previous?.end()
        case .requestSent, .answered, .retrying, .redirected:
            guard let span = spans.withLock({ $0[key] }) else { return }
            var attributes = SpanAttributes()
            if let attempt = event.attempt {
                attributes["link.attempt"] = attempt
                span.attributes["link.attempts"] = attempt
            }
            if let status = event.statusCode {
                attributes["http.response.status_code"] = status
                span.attributes["http.response.status_code"] = status
            }
            if let reason = event.reason { attributes["link.reason"] = reason }
            if let target = event.target { attributes["link.target"] = target.loggedString() }
            span.addEvent(SpanEvent(name: event.kind.description, attributes: attributes))
        case .resolved, .failed, .refused:
            guard let span = spans.withLock({ $0.removeValue(forKey: key) }) else { return }
            let outcome = event.errorCode?.description ?? "resolved"
            span.attributes["link.outcome"] = outcome
            if event.errorCode != nil { span.setStatus(SpanStatus(code: .error, message: outcome)) }
            span.end()
        default:
            return
        }
    }
}
