import Foundation

/// The outcome of handling one link: where it was meant to go, or why that is unknown.
///
/// This is the content of the ``Foundation/NSNotification/Name/PIORsysWebURLResolved`` broadcast, as a value.
/// A link can carry both a destination and an error: when the server's deep link was unsafe, it is dropped and
/// reported in ``error`` while the web link is still delivered.
public struct ResolvedLink: Sendable, Hashable {
    /// The URL that was handed in (the tracking URL for pub-web links), exactly as received.
    public var requestedURL: URL
    /// The app's deep link (`mobileDeepLinkUrl`), when the campaign has one.
    ///
    /// A link from a Response Handler's answer is kept as its text and parsed each time this is read: keep the
    /// `URL` when you need it more than once.
    public var deepLinkURL: URL? {
        get { deepLink?.url }
        set { deepLink = newValue.map(AnswerLink.init) }
    }
    /// The web link (`webLinkUrl`), the fallback when there is no deep link.
    ///
    /// Kept as text and parsed when read, like ``deepLinkURL``.
    public var webLinkURL: URL? {
        get { webLink?.url }
        set { webLink = newValue.map(AnswerLink.init) }
    }
    /// Whether ``requestedURL`` is a Responsys pub-web link.
    public var isPubWeb: Bool
    /// Why the link could not be (fully) resolved, if it could not.
    public var error: LinkError?
    /// ``deepLinkURL``'s storage.
    var deepLink: AnswerLink?
    /// ``webLinkURL``'s storage.
    var webLink: AnswerLink?

    /// Creates a resolved link.
    ///
    /// - Parameters:
    ///   - requestedURL: The URL handed in.
    ///   - deepLinkURL: The deep link, if any.
    ///   - webLinkURL: The web link, if any.
    ///   - isPubWeb: Whether the requested URL is a pub-web link.
    ///   - error: The error, if any.
    public init(requestedURL: URL, deepLinkURL: URL? = nil, webLinkURL: URL? = nil, isPubWeb: Bool, error: LinkError? = nil) {
        self.init(
            requestedURL: requestedURL, deepLink: deepLinkURL.map(AnswerLink.init),
            webLink: webLinkURL.map(AnswerLink.init), isPubWeb: isPubWeb, error: error)
    }

    /// Creates a resolved link whose destinations may still be text.
    init(requestedURL: URL, deepLink: AnswerLink?, webLink: AnswerLink?, isPubWeb: Bool, error: LinkError?) {
        self.requestedURL = requestedURL
        self.deepLink = deepLink
        self.webLink = webLink
        self.isPubWeb = isPubWeb
        self.error = error
    }

    /// Where to send the user: the deep link, else the web link (parsed when read, like ``deepLinkURL``).
    public var destinationURL: URL? { deepLinkURL ?? webLinkURL }
}
