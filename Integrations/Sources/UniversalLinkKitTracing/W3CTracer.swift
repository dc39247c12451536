public import Logging
import Synchronization
public import Tracing

/// A tracer that needs no collector: it continues the caller's W3C trace context (`traceparent`, `tracestate`)
/// and hands each ended span to a closure, for example ``logging(to:level:)``, which writes one log line per span.
///
/// `link-service` bootstraps it by default (`ULK_TRACING=w3c`), so that its spans belong to the caller's trace and
/// its log lines carry the caller's `trace_id` (with ``traceMetadataProvider``). A host with a tracing backend
/// bootstraps its own tracer (swift-otel, for example) instead; nothing here is needed then.
///
/// ```swift
/// let logger = Logger(label: "links")
/// InstrumentationSystem.bootstrap(W3CTracer.logging(to: logger))
/// ```
///
/// Sampling follows the parent: a span whose caller said "not sampled" (flags `00`) still has its ids and passes
/// them on, but is not recorded and not handed over. A request without a valid `traceparent` starts a new, sampled
/// trace. `inject` writes `traceparent` and `tracestate` into a carrier, for a host that wants to propagate;
/// UniversalLinkKit itself never does: nothing trace-related is sent to the Response Handler.
public struct W3CTracer: Tracer {
    /// An ended span, as handed to the tracer's closure.
    public struct FinishedSpan: Sendable {
        /// The span's name.
        public var operationName: String
        /// The span's kind.
        public var kind: SpanKind
        /// The span's own ids: its trace, and itself as the parent of what it starts.
        public var traceContext: TraceContext
        /// The id of the span it is a child of, in this process or the caller's; `nil` for a new trace.
        public var parentSpanID: String?
        /// When it started and ended, in nanoseconds since the Unix epoch.
        public var startNanoseconds: UInt64
        /// When it ended, in nanoseconds since the Unix epoch.
        public var endNanoseconds: UInt64
        /// Its attributes.
        public var attributes: SpanAttributes
        /// Its events, in the order they were added.
        public var events: [SpanEvent]
        /// Its status, if one was set.
        public var status: SpanStatus?
        /// The type names of the errors recorded on it (not their descriptions, which may name a link's query).
        public var errorTypes: [String]

        /// How long the span took.
        public var duration: Duration {
            .nanoseconds(Int64(clamping: endNanoseconds &- min(startNanoseconds, endNanoseconds)))
        }
    }

    private let onEnd: @Sendable (FinishedSpan) -> Void

    /// Creates a tracer that hands each ended, sampled span to `onEnd`.
    ///
    /// - Parameter onEnd: Called once per ended span, on the task that ends it.
    public init(onEnd: @escaping @Sendable (FinishedSpan) -> Void) {
        self.onEnd = onEnd
    }

    /// A tracer that writes each ended span as one log line, `span`, with the metadata `trace_id`, `span_id`,
    /// `parent_span_id`, `span.name`, `span.kind`, `span.duration_ms`, `span.status`, `span.events` (their names),
    /// and the span's attributes under their own names.
    ///
    /// - Parameters:
    ///   - logger: The logger.
    ///   - level: The level of the lines. Default `debug`.
    /// - Returns: The tracer.
    public static func logging(to logger: Logger, level: Logger.Level = .debug) -> W3CTracer {
        W3CTracer { span in
            guard logger.logLevel <= level else { return }
            logger.log(level: level, "span", metadata: span.logMetadata)
        }
    }

    /// Starts a span: a child of the context's span or of the caller's extracted context, or the root of a new trace.
    public func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> W3CSpan {
        var serviceContext = context()
        var generator = SystemRandomNumberGenerator()
        let parent = serviceContext.traceContext
        let own = parent.map { $0.child(spanID: TraceContext.newSpanID(using: &generator)) }
            ?? TraceContext.newTrace(using: &generator)
        serviceContext.traceContext = own
        return W3CSpan(
            operationName: operationName, context: serviceContext, parentSpanID: parent?.spanID, kind: kind,
            start: instant().nanosecondsSinceEpoch, onEnd: own.isSampled ? onEnd : nil
        )
    }

    /// Nothing to flush: spans are handed over as they end.
    public func forceFlush() {}

    /// Reads `traceparent` and `tracestate`; an invalid or missing `traceparent` leaves the context as it was.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let header = extractor.extract(key: "traceparent", from: carrier),
              let caller = TraceContext(traceparent: header, tracestate: extractor.extract(key: "tracestate", from: carrier))
        else { return }
        context.traceContext = caller
    }

    /// Writes the context's `traceparent` (and `tracestate`, when there is one).
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let trace = context.traceContext else { return }
        injector.inject(trace.traceparent, forKey: "traceparent", into: &carrier)
        if let state = trace.state { injector.inject(state, forKey: "tracestate", into: &carrier) }
    }
}

/// A span of ``W3CTracer``.
public final class W3CSpan: Span {
    private struct State {
        var operationName: String
        var attributes = SpanAttributes()
        var events: [SpanEvent] = []
        var status: SpanStatus?
        var errorTypes: [String] = []
        var isRecording: Bool
    }

    /// The context of the span: the one it was started in, with this span's ``TraceContext``.
    public let context: ServiceContext
    private let parentSpanID: String?
    private let kind: SpanKind
    private let start: UInt64
    private let onEnd: (@Sendable (W3CTracer.FinishedSpan) -> Void)?
    private let state: Mutex<State>

    init(
        operationName: String, context: ServiceContext, parentSpanID: String?, kind: SpanKind, start: UInt64,
        onEnd: (@Sendable (W3CTracer.FinishedSpan) -> Void)?
    ) {
        self.context = context
        self.parentSpanID = parentSpanID
        self.kind = kind
        self.start = start
        self.onEnd = onEnd
        self.state = Mutex(State(operationName: operationName, isRecording: onEnd != nil))
    }

    /// The span's name.
    public var operationName: String {
        get { state.withLock { $0.operationName } }
        set { state.withLock { if $0.isRecording { $0.operationName = newValue } } }
    }

    /// The span's attributes.
    public var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set { state.withLock { if $0.isRecording { $0.attributes = newValue } } }
    }

    /// Whether the span records: it was sampled and has not ended.
    public var isRecording: Bool { state.withLock { $0.isRecording } }

    /// Sets the status.
    public func setStatus(_ status: SpanStatus) {
        state.withLock { if $0.isRecording { $0.status = status } }
    }

    /// Adds an event.
    public func addEvent(_ event: SpanEvent) {
        state.withLock { if $0.isRecording { $0.events.append(event) } }
    }

    /// Records the error's type name (not its description, which may name a link's query).
    public func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        let type = String(describing: Swift.type(of: error))
        state.withLock { if $0.isRecording { $0.errorTypes.append(type) } }
    }

    /// Links are not kept.
    public func addLink(_ link: SpanLink) {}

    /// Ends the span and hands it over, once; a second `end` does nothing.
    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        guard let onEnd, let trace = context.traceContext else { return }
        let ended: State? = state.withLock { state in
            guard state.isRecording else { return nil }
            state.isRecording = false
            return state
        }
        guard let ended else { return }
        onEnd(W3CTracer.FinishedSpan(
            operationName: ended.operationName, kind: kind, traceContext: trace, parentSpanID: parentSpanID,
            startNanoseconds: start, endNanoseconds: instant().nanosecondsSinceEpoch, attributes: ended.attributes,
            events: ended.events, status: ended.status, errorTypes: ended.errorTypes
        ))
    }
}

extension W3CTracer.FinishedSpan {
    /// The metadata of the span's log line (see ``W3CTracer/logging(to:level:)``).
    public var logMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        attributes.forEach { name, value in metadata[name] = .string(Self.text(of: value)) }
        metadata["trace_id"] = .string(traceContext.traceID)
        metadata["span_id"] = .string(traceContext.spanID)
        if let parentSpanID { metadata["parent_span_id"] = .string(parentSpanID) }
        metadata["span.name"] = .string(operationName)
        metadata["span.kind"] = .string("\(kind)")
        let microseconds = (endNanoseconds &- min(startNanoseconds, endNanoseconds)) / 1000
        let fraction = String(microseconds % 1000)
        metadata["span.duration_ms"] = .string(
            "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.utf8.count) + fraction
        )
        if let status { metadata["span.status"] = .string(status.code == .error ? "error" : "ok") }
        if !events.isEmpty { metadata["span.events"] = .string(events.map(\.name).joined(separator: ",")) }
        if !errorTypes.isEmpty { metadata["span.errors"] = .string(errorTypes.joined(separator: ",")) }
        return metadata
    }

    private static func text(of attribute: SpanAttribute) -> String {
        switch attribute {
        case .int32(let value): "\(value)"
        case .int64(let value): "\(value)"
        case .double(let value): "\(value)"
        case .bool(let value): "\(value)"
        case .string(let value): value
        case .stringConvertible(let value): "\(value)"
        default: "\(attribute)"
        }
    }
}

/// Adds `trace_id` and `span_id` of the current span (``W3CTracer``'s) to every log line written inside it, so
/// that a service's own lines join the caller's trace.
///
/// ```swift
/// LoggingSystem.bootstrap({ label, provider in StreamLogHandler.standardError(label: label, metadataProvider: provider) },
///                         metadataProvider: traceMetadataProvider)
/// ```
public let traceMetadataProvider = Logger.MetadataProvider {
    guard let trace = ServiceContext.current?.traceContext else { return [:] }
    return ["trace_id": .string(trace.traceID), "span_id": .string(trace.spanID)]
}
