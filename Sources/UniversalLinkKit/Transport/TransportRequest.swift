import Foundation

/// A `GET` request the resolver asks a ``LinkTransport`` to send.
public struct TransportRequest: Sendable, Hashable {
    /// The URL to request, exactly as given (its query is never rewritten).
    public var url: URL
    /// Header fields to send (`Accept` and `User-Agent` for a resolution).
    public var headerFields: [String: String]
    /// Whether the host may resolve to a loopback, private, link-local or other non-public address. Default
    /// `false`; the resolver sets it from ``ResolutionPolicy/allowsLocalHosts``.
    public var allowsLocalAddresses: Bool
    /// Whether a pooled keep-alive connection may carry the request. Default `true`; the resolver turns it off
    /// for its retry, because an HTTP stack re-sends a request by itself when a reused connection dies, and a
    /// fresh connection is never re-sent.
    public var allowsReusedConnection: Bool
    /// The instant after which the request must not be sent: the resolution's deadline, on the system's
    /// `ContinuousClock` (the clock a transport's own timers keep). A transport that queues requests (for a
    /// connection slot) drops one whose deadline passed before it started, so no click is counted for a caller that
    /// was already answered. `nil` (the default): none.
    public var deadline: ContinuousClock.Instant?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - headerFields: Header fields.
    ///   - allowsLocalAddresses: Whether non-public addresses may be connected to.
    ///   - allowsReusedConnection: Whether a pooled connection may be used.
    ///   - deadline: When the request must have started by, if ever.
    public init(
        url: URL, headerFields: [String: String] = [:], allowsLocalAddresses: Bool = false,
        allowsReusedConnection: Bool = true, deadline: ContinuousClock.Instant? = nil
    ) {
        self.url = url
        self.headerFields = headerFields
        self.allowsLocalAddresses = allowsLocalAddresses
        self.allowsReusedConnection = allowsReusedConnection
        self.deadline = deadline
    }
}
