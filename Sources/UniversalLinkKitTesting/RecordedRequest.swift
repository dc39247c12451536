import Foundation

/// One HTTP request as ``ResponseHandlerStub`` received it, recorded before any behaviour ran.
///
/// Tests use it to check what the client really sent:
/// ```swift
/// let request = try #require(stub.requests.first)
/// #expect(request.target.hasPrefix("/pub/acc"))
/// #expect(request.query == "_ri_=1")
/// #expect(request.header("accept") == "application/json")
/// ```
public struct RecordedRequest: Sendable {
    /// The request method, as sent (`GET`, `HEAD`, `POST`...).
    package var method: String

    /// The raw request target, byte for byte as it appeared on the request line (`/pub/acc?_ri_=1`).
    public var target: String

    /// The part of ``target`` before the first `?`.
    package var path: String

    /// The raw query after the first `?`, not decoded; `nil` when the target has no `?`.
    public var query: String?

    /// The HTTP version from the request line, for example `HTTP/1.1`.
    package var version: String

    /// Header fields in the order they arrived, names and values as sent (values trimmed of surrounding blanks).
    package var headers: [(name: String, value: String)]

    /// The request body (empty for the usual `GET`).
    package var body: Data

    /// When the stub finished reading the request.
    package var receivedAt: Date

    /// Creates a recorded request; the stub builds these, tests may build their own for comparisons.
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - target: the raw request target; ``path`` and ``query`` are derived from it.
    ///   - version: the HTTP version from the request line.
    ///   - headers: header fields in arrival order.
    ///   - body: the request body.
    ///   - receivedAt: when the request was read.
    package init(
        method: String,
        target: String,
        version: String = "HTTP/1.1",
        headers: [(name: String, value: String)] = [],
        body: Data = Data(),
        receivedAt: Date = Date()
    ) {
        self.method = method
        self.target = target
        if let mark = target.firstIndex(of: "?") {
            path = String(target[..<mark])
            query = String(target[target.index(after: mark)...])
        } else {
            path = target
            query = nil
        }
        self.version = version
        self.headers = headers
        self.body = body
        self.receivedAt = receivedAt
    }

    /// The value of the first header field named `name`, compared case-insensitively; `nil` when absent.
    ///
    /// - Parameter name: a header name, in any case (`"accept"`, `"User-Agent"`).
    /// - Returns: the first matching value, trimmed.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of the header fields named `name` (case-insensitive), in arrival order.
    ///
    /// - Parameter name: a header name, in any case.
    /// - Returns: the values, possibly empty.
    package func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// Whether this request matches a stub key: the exact ``target`` or the bare ``path``.
    func matches(_ key: String) -> Bool {
        target == key || path == key
    }
}
