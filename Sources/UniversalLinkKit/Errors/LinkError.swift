import Foundation
internal import _LinkKitText

/// The error of a link that could not be handled: what happened, and what the host can do about it.
///
/// `LinkError` travels inside ``ResolvedLink/error`` and under ``PIOErrorResolveWebURL`` in the broadcast
/// notification. Switch over ``code`` to choose between retrying later and falling back to the web:
///
/// ```swift
/// if let error = link.error {
///     switch error.code {
///     case .timeout, .network: retryLater()
///     case .missingDestination, .unsafeLink: showHomeScreen()
///     default: openInBrowser(link.requestedURL)
///     }
/// }
/// ```
///
/// The set of codes may grow: always keep a `default` case.
public struct LinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public let code: Code

    /// A human-readable explanation that says what happened and what to do.
    public let message: String

    /// The HTTP status code, for ``Code/httpStatus`` errors.
    public let statusCode: Int?

    /// The error that caused this one, when there is one (a transport error, a JSON parser error).
    public let underlyingError: (any Error & Sendable)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What happened and what the host can do about it.
    ///   - statusCode: The HTTP status, for ``Code/httpStatus``.
    ///   - underlyingError: The cause, if any.
    package init(
        code: Code,
        message: String,
        statusCode: Int? = nil,
        underlyingError: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.statusCode = statusCode
        self.underlyingError = underlyingError
    }

    /// `"<code>: <message>"`.
    public var description: String { "\(code): \(message)" }

    /// Two errors are equal when code, message and status code are; the underlying error is not compared.
    public static func == (lhs: LinkError, rhs: LinkError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.statusCode == rhs.statusCode
    }

    /// Hashes code, message and status code.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(statusCode)
    }
}

extension LinkError {
    /// The kind of a ``LinkError``: an open set of static members, compared with `==` or matched in a `switch`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Storage: Int, ErrorCodeStorage, CaseIterable {
            case hostNotAllowed = 1
            case timeout
            case network
            case httpStatus
            case invalidResponse
            case responseTooLarge
            case unsafeLink
            case missingDestination
            case cancelled
            case notPubWebLink
            case shuttingDown
            case claimStoreUnavailable
            case tls
        }

        private let storage: Storage

        private init(_ storage: Storage) {
            self.storage = storage
        }

        /// The link's scheme or host is refused by the ``ResolutionPolicy``: no request was made.
        public static var hostNotAllowed: Self { .init(.hostNotAllowed) }
        /// The resolution did not finish before its deadline (retries included).
        public static var timeout: Self { .init(.timeout) }
        /// The connection failed, or broke after the server started answering.
        public static var network: Self { .init(.network) }
        /// The server answered with a status other than 2xx (after the allowed retry), or redirected too often.
        public static var httpStatus: Self { .init(.httpStatus) }
        /// The answer was not the JSON object the Response Handler sends.
        public static var invalidResponse: Self { .init(.invalidResponse) }
        /// The answer's body was larger than the configured cap.
        public static var responseTooLarge: Self { .init(.responseTooLarge) }
        /// A link in the answer (or the URL handed in) has a scheme that must never be opened.
        public static var unsafeLink: Self { .init(.unsafeLink) }
        /// The answer had neither a deep link nor a web link.
        public static var missingDestination: Self { .init(.missingDestination) }
        /// The resolution was cancelled before it finished.
        public static var cancelled: Self { .init(.cancelled) }
        /// The URL is not a pub-web app link the manager resolves (another host's link, a `/pub/cc` web link, a
        /// custom scheme): no request was made. Open it as it is.
        public static var notPubWebLink: Self { .init(.notPubWebLink) }
        /// The manager is shutting down and takes no new links: no request was made.
        public static var shuttingDown: Self { .init(.shuttingDown) }
        /// The shared ``ClaimStore`` could not be reached or failed, and ``ClaimStoreFailurePolicy/reject`` is
        /// configured: nothing was sent, so no click was counted.
        public static var claimStoreUnavailable: Self { .init(.claimStoreUnavailable) }
        /// The TLS handshake with the server failed after it sent TLS data: its certificate is not trusted, expired
        /// or not yet valid, for another name, from an issuer that is not trusted, or its protocol versions or
        /// ciphers were refused. No request was sent and none is retried: retrying does not help. Open the link in
        /// a browser; for a private CA, trust its roots (``CurlTransport/Configuration/caFile``).
        public static var tls: Self { .init(.tls) }

        /// The code's name, spelled as its static member: `"hostNotAllowed"`, `"timeout"`, ...
        public var description: String { storage.name }

        /// The code's stable integer, for storage (1 = `hostNotAllowed` ... 9 = `cancelled`, 10 = `notPubWebLink`,
        /// 11 = `shuttingDown`, 12 = `claimStoreUnavailable`, 13 = `tls`).
        public var rawValue: Int { storage.rawValue }

        /// The code with a ``rawValue``, for reading one back from storage.
        ///
        /// - Parameter rawValue: A code's ``rawValue``.
        /// - Returns: `nil` when no code has it.
        public init?(rawValue: Int) {
            guard let storage = Storage(rawValue: rawValue) else { return nil }
            self.storage = storage
        }
    }
}

extension LinkError: CustomNSError, LocalizedError {
    /// The `NSError` domain of every `LinkError`: `"UniversalLinkKit.LinkError"`, so code ported from iOS that reads
    /// the notification's error as an `NSError` sees the same domain and code on every platform.
    public static var errorDomain: String { "UniversalLinkKit.LinkError" }

    /// The stable integer of ``code`` (see ``Code/rawValue``).
    public var errorCode: Int { code.rawValue }

    /// `NSLocalizedDescriptionKey` with the message, `NSUnderlyingErrorKey` with the cause, and
    /// `"LinkErrorCode"` with the code's name.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message, "LinkErrorCode": code.description]
        if let underlyingError { info[NSUnderlyingErrorKey] = underlyingError as NSError }
        if let statusCode { info["LinkErrorHTTPStatus"] = statusCode }
        return info
    }

    /// The message, so that `localizedDescription` says what happened and what to do.
    public var errorDescription: String? { message }
}
