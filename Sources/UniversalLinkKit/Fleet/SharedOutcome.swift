import Foundation

/// The part of a resolution's result that other processes' callers need: the destinations, or the error.
///
/// Never the tracking link, nor any part of it: a process builds its own ``ResolvedLink`` from this and the link it
/// was handed. That is why an outcome carries no error message (a message names the link's host and path): the
/// process that reads it words the error for its own link.
public struct SharedOutcome: Sendable, Hashable {
    /// The app's deep link, if the Response Handler gave one.
    public var deepLinkURL: URL?
    /// The web link, if the Response Handler gave one.
    public var webLinkURL: URL?
    /// The error's code, when the resolution failed.
    public var errorCode: LinkError.Code?
    /// The HTTP status of a failed answer, when there was one.
    public var statusCode: Int?

    /// Creates an outcome.
    ///
    /// - Parameters:
    ///   - deepLinkURL: The app's deep link.
    ///   - webLinkURL: The web link.
    ///   - errorCode: The error's code, when the resolution failed.
    ///   - statusCode: The HTTP status of a failed answer.
    public init(deepLinkURL: URL? = nil, webLinkURL: URL? = nil, errorCode: LinkError.Code? = nil, statusCode: Int? = nil) {
        self.deepLinkURL = deepLinkURL
        self.webLinkURL = webLinkURL
        self.errorCode = errorCode
        self.statusCode = statusCode
    }

    /// The shareable part of a resolved link: destinations, error code and status, no message.
    ///
    /// - Parameter link: A resolution's result.
    package init(_ link: ResolvedLink) {
        self.init(
            deepLinkURL: link.deepLinkURL, webLinkURL: link.webLinkURL, errorCode: link.error?.code,
            statusCode: link.error?.statusCode)
    }

    /// The resolved link this outcome gives the link `requestedURL`.
    ///
    /// - Parameter requestedURL: The link as this process was handed it.
    /// - Returns: The resolved link.
    package func resolvedLink(for requestedURL: URL) -> ResolvedLink {
        let error = errorCode.map { code in
            let status = statusCode.map { " (status \($0))" } ?? ""
            return LinkError(
                code: code,
                message: "The resolution of \(requestedURL.redactedString) by another replica failed: "
                    + "\(code)\(status); retry later or open the link in a browser.",
                statusCode: statusCode)
        }
        return ResolvedLink(
            requestedURL: requestedURL, deepLinkURL: deepLinkURL, webLinkURL: webLinkURL, isPubWeb: true, error: error)
    }
}
