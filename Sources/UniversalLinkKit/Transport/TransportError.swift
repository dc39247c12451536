internal import _LinkKitText

/// A failure of a ``LinkTransport``.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of transport failure the resolver tells apart.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        enum Storage: ErrorCodeStorage { case noAnswer, failedAfterAnswer, bodyTooLarge, headersTooLarge, timedOut, addressNotAllowed, encodedBody }
        let storage: Storage

        /// No status line arrived: the connection failed, closed or reset first. Safe to retry.
        public static var noAnswer: Self { .init(storage: .noAnswer) }
        /// The server started answering, then the transfer failed. Not retried: the click may have counted.
        public static var failedAfterAnswer: Self { .init(storage: .failedAfterAnswer) }
        /// The body exceeded the cap.
        public static var bodyTooLarge: Self { .init(storage: .bodyTooLarge) }
        /// The answer's header block exceeded the transport's cap (``CurlTransport/Configuration/maxHeaderBytes``);
        /// the transfer stopped there. Not retried: the server answered.
        package static var headersTooLarge: Self { .init(storage: .headersTooLarge) }
        /// The transport's own timeout fired. Not retried: the request may have reached the server.
        public static var timedOut: Self { .init(storage: .timedOut) }
        /// The host resolves to an address the request does not allow (see
        /// ``TransportRequest/allowsLocalAddresses``); nothing was sent.
        public static var addressNotAllowed: Self { .init(storage: .addressNotAllowed) }
        /// A 2xx answer arrived compressed (`Content-Encoding`) though none was asked for; it was not read.
        package static var encodedBody: Self { .init(storage: .encodedBody) }

        /// The kind's name.
        public var description: String { storage.name }
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
