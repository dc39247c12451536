import Foundation

/// Sends one HTTP request for the resolver and returns the answer, without following redirects.
///
/// The production transport is ``URLSessionTransport``. Tests inject their own, for example with
/// ``ClosureTransport``, so the resolver's logic is exercised without a network.
///
/// Contract:
/// - Never follow redirects: return the 3xx answer; the resolver checks each redirect against its policy.
/// - Stop receiving once the body exceeds `maxBodyBytes` and throw ``TransportError/Kind/bodyTooLarge``.
/// - Throw ``TransportError/Kind/noAnswer`` only when no status line arrived (the only transport failure the
///   resolver retries), ``TransportError/Kind/failedAfterAnswer`` when one did, and
///   ``TransportError/Kind/timedOut`` when a timeout of the transport's own fired (not retried).
/// - Honour task cancellation promptly: the resolver's deadline is a cancellation. A transport that ignores it
///   holds the resolution until it returns.
/// - A transport that connects itself should check the addresses it connects to
///   (``TransportRequest/allowsLocalAddresses``) and open a fresh connection when
///   ``TransportRequest/allowsReusedConnection`` is off.
public protocol LinkTransport: Sendable {
    /// Sends a request.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - maxBodyBytes: The largest body to accept.
    /// - Returns: The answer, with its whole body.
    /// - Throws: ``TransportError``, or `CancellationError` when cancelled.
    func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse

    /// Releases the transport's connections, threads and session; sends after it fail at once.
    ///
    /// A ``LinkManager`` calls it from ``LinkManager/shutdown(gracePeriod:)`` on the transport it created itself,
    /// never on one it was given (that one may be shared). The default does nothing.
    func shutdown()
}

extension LinkTransport {
    /// Does nothing: a transport without resources of its own has nothing to release.
    public func shutdown() {}
}

/// A request the resolver asks a ``LinkTransport`` to send.
public struct TransportRequest: Sendable, Hashable {
    /// The URL to request, exactly as given (its query is never rewritten).
    public var url: URL
    /// The HTTP method; the resolver always uses `GET`.
    public var method: String
    /// Header fields to send.
    public var headerFields: [String: String]
    /// Whether the host may resolve to a loopback, private, link-local or other non-public address. Default
    /// `false`; the resolver sets it from ``ResolutionPolicy/allowsLocalHosts``.
    public var allowsLocalAddresses: Bool
    /// Whether a pooled keep-alive connection may carry the request. Default `true`; the resolver turns it off
    /// for its retry, because an HTTP stack re-sends a request by itself when a reused connection dies, and a
    /// fresh connection is never re-sent.
    public var allowsReusedConnection: Bool

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - method: The method, `GET` by default.
    ///   - headerFields: Header fields.
    ///   - allowsLocalAddresses: Whether non-public addresses may be connected to.
    ///   - allowsReusedConnection: Whether a pooled connection may be used.
    public init(
        url: URL, method: String = "GET", headerFields: [String: String] = [:], allowsLocalAddresses: Bool = false,
        allowsReusedConnection: Bool = true
    ) {
        self.url = url
        self.method = method
        self.headerFields = headerFields
        self.allowsLocalAddresses = allowsLocalAddresses
        self.allowsReusedConnection = allowsReusedConnection
    }
}

/// An answer from a ``LinkTransport``.
public struct TransportResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var statusCode: Int
    /// Header fields, names lower-cased.
    public var headerFields: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response; header names are lower-cased.
    ///
    /// - Parameters:
    ///   - statusCode: The status.
    ///   - headerFields: Header fields.
    ///   - body: The body.
    public init(statusCode: Int, headerFields: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headerFields = Dictionary(
            headerFields.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// A response whose header names are lower-case already.
    init(lowercasedHeaders: [String: String], statusCode: Int, body: Data) {
        self.statusCode = statusCode
        self.headerFields = lowercasedHeaders
        self.body = body
    }

    /// The value of a header field, looked up case-insensitively.
    ///
    /// - Parameter name: The field name.
    /// - Returns: The value, if present.
    public func headerField(_ name: String) -> String? {
        headerFields[name.lowercased()]
    }
}

/// A failure of a ``LinkTransport``.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of transport failure the resolver tells apart.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        enum Storage: Sendable, Hashable { case noAnswer, failedAfterAnswer, bodyTooLarge, timedOut, addressNotAllowed, encodedBody }
        let storage: Storage

        /// No status line arrived: the connection failed, closed or reset first. Safe to retry.
        public static var noAnswer: Self { .init(storage: .noAnswer) }
        /// The server started answering, then the transfer failed. Not retried: the click may have counted.
        public static var failedAfterAnswer: Self { .init(storage: .failedAfterAnswer) }
        /// The body exceeded the cap.
        public static var bodyTooLarge: Self { .init(storage: .bodyTooLarge) }
        /// The transport's own timeout fired. Not retried: the request may have reached the server.
        public static var timedOut: Self { .init(storage: .timedOut) }
        /// The host resolves to an address the request does not allow (see
        /// ``TransportRequest/allowsLocalAddresses``); nothing was sent.
        public static var addressNotAllowed: Self { .init(storage: .addressNotAllowed) }
        /// A 2xx answer arrived compressed (`Content-Encoding`) though none was asked for; it was not read.
        public static var encodedBody: Self { .init(storage: .encodedBody) }

        /// The kind's name.
        public var description: String {
            switch storage {
            case .noAnswer: "noAnswer"
            case .failedAfterAnswer: "failedAfterAnswer"
            case .bodyTooLarge: "bodyTooLarge"
            case .timedOut: "timedOut"
            case .addressNotAllowed: "addressNotAllowed"
            case .encodedBody: "encodedBody"
            }
        }
    }

    /// The kind of failure.
    public var kind: Kind
    /// A description of the cause, for messages.
    public var detail: String

    /// Creates a transport error.
    ///
    /// - Parameters:
    ///   - kind: The kind of failure.
    ///   - detail: What the underlying stack said.
    public init(_ kind: Kind, detail: String = "") {
        self.kind = kind
        self.detail = detail
    }

    /// `"<kind>: <detail>"`.
    public var description: String { detail.isEmpty ? kind.description : "\(kind): \(detail)" }
}

/// A ``LinkTransport`` made of a closure, for tests and adapters.
///
/// ```swift
/// let transport = ClosureTransport { request, _ in
///     TransportResponse(statusCode: 200, body: Data(#"{"webLinkUrl":"https://example.com"}"#.utf8))
/// }
/// ```
public struct ClosureTransport: LinkTransport {
    private let body: @Sendable (TransportRequest, Int) async throws -> TransportResponse

    /// Creates a transport that calls `body` for every request.
    ///
    /// - Parameter body: Receives the request and the body cap, returns the answer.
    public init(_ body: @escaping @Sendable (TransportRequest, Int) async throws -> TransportResponse) {
        self.body = body
    }

    /// Calls the closure.
    public func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse {
        try await body(request, maxBodyBytes)
    }
}
