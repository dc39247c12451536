import Foundation

/// A request the resolver asks a ``LinkTransport`` to send.
public struct TransportRequest: Sendable, Hashable {
    /// An HTTP request method: an open set of static members.
    public struct Method: Sendable, Hashable, RawRepresentable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The method's token, as sent: `GET`.
        public let rawValue: String

        /// A method from its token.
        ///
        /// - Parameter rawValue: The token, as sent (`GET`, `HEAD`).
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A method from a string literal: `"GET"`.
        ///
        /// - Parameter value: The token.
        public init(stringLiteral value: String) {
            self.rawValue = value
        }

        /// `GET`, the method of every resolution.
        public static var get: Self { Self(rawValue: "GET") }
        /// `HEAD`.
        public static var head: Self { Self(rawValue: "HEAD") }

        /// The token.
        public var description: String { rawValue }
    }

    /// The URL to request, exactly as given (its query is never rewritten).
    public var url: URL
    /// The HTTP method; the resolver always uses ``Method/get``.
    public var method: Method
    /// Header fields to send, in order, repeated names kept.
    public var headerFields: HeaderFields
    /// Whether the host may resolve to a loopback, private, link-local or other non-public address. Default
    /// `false`; the resolver sets it from ``ResolutionPolicy/allowsLocalHosts``.
    public var allowsLocalAddresses: Bool
    /// Whether a pooled keep-alive connection may carry the request. Default `true`; the resolver turns it off
    /// for its retry, because an HTTP stack re-sends a request by itself when a reused connection dies, and a
    /// fresh connection is never re-sent.
    public var allowsReusedConnection: Bool
    /// The instant after which the request must not be sent: the resolution's deadline. A transport that queues
    /// requests (for a connection slot) drops one whose deadline passed before it started, so no click is counted
    /// for a caller that was already answered. `nil` (the default): none.
    ///
    /// It is an instant of the system's `ContinuousClock` (the clock a transport's own timers keep), never of an
    /// injected ``LinkClock``: the resolver translates its deadline into time left on its clock.
    public var deadline: ContinuousClock.Instant?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - method: The method, `GET` by default.
    ///   - headerFields: Header fields.
    ///   - allowsLocalAddresses: Whether non-public addresses may be connected to.
    ///   - allowsReusedConnection: Whether a pooled connection may be used.
    ///   - deadline: When the request must have started by, if ever.
    public init(
        url: URL, method: Method = .get, headerFields: HeaderFields = [:], allowsLocalAddresses: Bool = false,
        allowsReusedConnection: Bool = true, deadline: ContinuousClock.Instant? = nil
    ) {
        self.url = url
        self.method = method
        self.headerFields = headerFields
        self.allowsLocalAddresses = allowsLocalAddresses
        self.allowsReusedConnection = allowsReusedConnection
        self.deadline = deadline
    }
}
