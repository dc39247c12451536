import Foundation
import UniversalLinkKit

/// A `LinkTransport` made of a closure, for the package's own tests.
///
/// ```swift
/// // snippet: skip
/// // (a package type, which the snippets module cannot see)
/// let transport = ClosureTransport { request, _ in
///     TransportResponse(statusCode: 200, body: Data(#"{"webLinkUrl":"https://example.com"}"#.utf8))
/// }
/// ```
package struct ClosureTransport: LinkTransport {
    private let body: @Sendable (TransportRequest, Int) async throws -> TransportResponse

    /// Creates a transport that calls `body` for every request.
    ///
    /// - Parameter body: Receives the request and the body cap, returns the answer.
    package init(_ body: @escaping @Sendable (TransportRequest, Int) async throws -> TransportResponse) {
        self.body = body
    }

    /// Calls the closure.
    package func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse {
        try await body(request, maxBodyBytes)
    }
}
