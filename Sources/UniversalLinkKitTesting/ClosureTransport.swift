import Foundation

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
