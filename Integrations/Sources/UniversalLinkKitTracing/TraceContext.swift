public import Tracing

/// A W3C Trace Context: the trace a request belongs to and the span that is its parent, as the `traceparent`
/// header carries them (`00-<trace id>-<parent span id>-<flags>`), with the vendor's `tracestate` carried along.
///
/// ```swift
/// let caller = TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
/// // caller?.traceID == "4bf92f3577b34da6a3ce929d0e0e4736", caller?.isSampled == true
/// ```
///
/// Parsing follows the W3C Trace Context recommendation (level 1): lower-case hex only, version `ff` refused, a
/// trace or span id of all zeros refused, version `00` exactly 55 characters, a later version read as `00` when
/// what follows its first 55 characters starts with `-`. Anything else is no context: the server starts a new
/// trace, as the recommendation asks.
public struct TraceContext: Sendable, Hashable {
    /// The trace's id: 32 lower-case hex digits, not all zero.
    public let traceID: String
    /// The span's id (the parent of what the receiver starts): 16 lower-case hex digits, not all zero.
    public let spanID: String
    /// The trace flags; bit 0 is `sampled`.
    public let flags: UInt8
    /// The `tracestate` header, carried unchanged (at most 512 bytes; a longer one is dropped).
    public let state: String?

    /// The longest `tracestate` carried along.
    public static let maximumStateLength = 512

    /// Whether the caller records this trace (`sampled`, bit 0 of the flags).
    public var isSampled: Bool { flags & 1 != 0 }

    /// The `traceparent` header of this context, version `00`.
    public var traceparent: String {
        "00-\(traceID)-\(spanID)-\(Self.hex(UInt64(flags), digits: 2))"
    }

    /// Reads a `traceparent` header (and the `tracestate` that came with it).
    ///
    /// - Parameters:
    ///   - traceparent: The header's value.
    ///   - tracestate: The `tracestate` header's value, if any.
    /// - Returns: `nil` when the header is not a valid trace context.
    public init?(traceparent: String, tracestate: String? = nil) {
        let bytes = Array(traceparent.utf8)
        guard bytes.count >= 55, bytes[2] == UInt8(ascii: "-"), bytes[35] == UInt8(ascii: "-"),
              bytes[52] == UInt8(ascii: "-"),
              let version = Self.hexValue(bytes[0..<2]), version != 0xFF,
              Self.hexValue(bytes[3..<35]) != nil, Self.hexValue(bytes[36..<52]) != nil,
              let flags = Self.hexValue(bytes[53..<55])
        else { return nil }
        // Version 00 is exactly 55 characters; a later one may carry more after a dash.
        if version == 0 { guard bytes.count == 55 else { return nil } }
        else if bytes.count > 55, bytes[55] != UInt8(ascii: "-") { return nil }
        let traceID = String(decoding: bytes[3..<35], as: UTF8.self)
        let spanID = String(decoding: bytes[36..<52], as: UTF8.self)
        guard traceID.utf8.contains(where: { $0 != UInt8(ascii: "0") }),
              spanID.utf8.contains(where: { $0 != UInt8(ascii: "0") })
        else { return nil }
        self.init(traceID: traceID, spanID: spanID, flags: UInt8(flags), state: tracestate)
    }

    /// A context of known ids, as a tracer makes them for its spans.
    init(traceID: String, spanID: String, flags: UInt8, state: String?) {
        self.traceID = traceID
        self.spanID = spanID
        self.flags = flags
        self.state = state.flatMap { $0.utf8.count <= Self.maximumStateLength && !$0.isEmpty ? $0 : nil }
    }

    /// The same trace with another span as the parent.
    func child(spanID: String) -> TraceContext {
        TraceContext(traceID: traceID, spanID: spanID, flags: flags, state: state)
    }

    /// A new trace, sampled, with fresh random ids.
    static func newTrace(using generator: inout some RandomNumberGenerator) -> TraceContext {
        var high: UInt64 = 0
        var low: UInt64 = 0
        while high | low == 0 {
            high = generator.next()
            low = generator.next()
        }
        return TraceContext(
            traceID: hex(high, digits: 16) + hex(low, digits: 16), spanID: newSpanID(using: &generator), flags: 1,
            state: nil
        )
    }

    /// A fresh span id, never all zeros.
    static func newSpanID(using generator: inout some RandomNumberGenerator) -> String {
        var id: UInt64 = 0
        while id == 0 { id = generator.next() }
        return hex(id, digits: 16)
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.utf8.count)) + text
    }

    /// The value of lower-case hex digits (at most 16 of them are summed; longer runs are only checked), or `nil`.
    private static func hexValue(_ digits: ArraySlice<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value &<< 4 | UInt64(nibble)
        }
        return value
    }
}

extension ServiceContext {
    /// The W3C trace context of the current span (set by ``W3CTracer``), or of the caller once extracted.
    public var traceContext: TraceContext? {
        get { self[TraceContextKey.self] }
        set { self[TraceContextKey.self] = newValue }
    }
}

private enum TraceContextKey: ServiceContextKey {
    typealias Value = TraceContext
    static var nameOverride: String? { "w3c-trace-context" }
}
