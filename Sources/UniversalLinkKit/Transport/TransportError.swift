internal import _LinkKitText

/// A failure of a ``LinkTransport``.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of transport failure the resolver tells apart.
    public struct Kind: Sendable, Hashable {
        enum Storage: ErrorCodeStorage { case noAnswer, failedAfterAnswer, bodyTooLarge, headersTooLarge, timedOut, addressNotAllowed, encodedBody, tls }
        let storage: Storage

        /// No status line arrived: the connection failed, closed or reset first. Safe to retry.
        public static var noAnswer: Self { .init(storage: .noAnswer) }
        /// The server started answering, then the transfer failed. Not retried: the click may have counted.
        public static var failedAfterAnswer: Self { .init(storage: .failedAfterAnswer) }
        /// The body exceeded the cap.
        public static var bodyTooLarge: Self { .init(storage: .bodyTooLarge) }
        /// The answer's header block exceeded the transport's cap (64 KiB on ``CurlTransport``);
        /// the transfer stopped there. Not retried: the server answered.
        package static var headersTooLarge: Self { .init(storage: .headersTooLarge) }
        /// The transport's own timeout fired. Not retried: the request may have reached the server.
        public static var timedOut: Self { .init(storage: .timedOut) }
        /// The host resolves to an address the request does not allow (see
        /// ``TransportRequest/allowsLocalAddresses``); nothing was sent.
        public static var addressNotAllowed: Self { .init(storage: .addressNotAllowed) }
        /// A 2xx answer arrived compressed (`Content-Encoding`) though none was asked for; it was not read.
        package static var encodedBody: Self { .init(storage: .encodedBody) }
        /// The TLS handshake failed after the server sent TLS data: its certificate is not trusted, expired or not
        /// yet valid, for another name, issued by an unknown issuer, or the protocol or cipher was refused. No
        /// request was sent, and none is retried: the server answers the same way every time. The detail says why
        /// in words (``CurlTransport`` reads the server's certificate to name the reason).
        public static var tls: Self { .init(storage: .tls) }

        /// The kind's name.
        package var description: String { storage.name }
    }

    /// The kind of failure.
    public var kind: Kind
    /// A description of the cause, for messages.
    public var detail: String
    /// OpenSSL's verification result (`X509_V_ERR_*`) of a ``Kind/tls`` failure, when libcurl gave one.
    package var verifyResult: Int?

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
    public var description: String { detail.isEmpty ? kind.description : "\(kind.description): \(detail)" }
}
