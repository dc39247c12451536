import Foundation

/// The part of a resolution's result that other processes' callers need: the destinations, or the error.
///
/// Never the tracking link: a process builds its own ``ResolvedLink`` from this and the link it was handed.
public struct SharedOutcome: Sendable, Hashable {
    /// The app's deep link, if the Response Handler gave one.
    public var deepLinkURL: URL?
    /// The web link, if the Response Handler gave one.
    public var webLinkURL: URL?
    /// The error's code, when the resolution failed.
    public var errorCode: LinkError.Code?
    /// The error's message.
    public var errorMessage: String?
    /// The HTTP status of a failed answer, when there was one.
    public var statusCode: Int?

    /// Creates an outcome.
    ///
    /// - Parameters:
    ///   - deepLinkURL: The app's deep link.
    ///   - webLinkURL: The web link.
    ///   - errorCode: The error's code, when the resolution failed.
    ///   - errorMessage: The error's message.
    ///   - statusCode: The HTTP status of a failed answer.
    public init(
        deepLinkURL: URL? = nil, webLinkURL: URL? = nil, errorCode: LinkError.Code? = nil, errorMessage: String? = nil,
        statusCode: Int? = nil
    ) {
        self.deepLinkURL = deepLinkURL
        self.webLinkURL = webLinkURL
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.statusCode = statusCode
    }

    /// The shareable part of a resolved link.
    ///
    /// - Parameter link: A resolution's result.
    public init(_ link: ResolvedLink) {
        self.init(
            deepLinkURL: link.deepLinkURL, webLinkURL: link.webLinkURL, errorCode: link.error?.code,
            errorMessage: link.error?.message, statusCode: link.error?.statusCode)
    }

    /// The resolved link this outcome gives the link `requestedURL`.
    ///
    /// - Parameter requestedURL: The link as this process was handed it.
    /// - Returns: The resolved link.
    public func resolvedLink(for requestedURL: URL) -> ResolvedLink {
        let error = errorCode.map {
            LinkError(code: $0, message: errorMessage ?? "\($0) (resolved by another process)", statusCode: statusCode)
        }
        return ResolvedLink(
            requestedURL: requestedURL, deepLinkURL: deepLinkURL, webLinkURL: webLinkURL, isPubWeb: true, error: error)
    }
}
