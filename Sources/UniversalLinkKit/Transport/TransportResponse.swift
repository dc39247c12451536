import Foundation

/// An answer from a ``LinkTransport``: status, header fields and the whole (capped) body.
public struct TransportResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var statusCode: Int
    /// Header fields, names lower-cased.
    public var headerFields: [String: String]
    /// The body.
    public var body: Data
    /// How long the request waited for a connection (a free slot under the transport's per-host limit) before it
    /// started connecting or was sent on a reused connection; `nil` when the transport does not measure it
    /// (`CurlTransport` does).
    package var connectionWait: Duration?

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

    /// The value of a header field, looked up case-insensitively.
    ///
    /// - Parameter name: The field name.
    /// - Returns: The value, if present.
    package func headerField(_ name: String) -> String? {
        headerFields[name.lowercased()]
    }
}
