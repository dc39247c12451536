import Foundation

/// The outcome of handling one link: where it was meant to go, or why that is unknown.
///
/// This is the content of the ``Foundation/NSNotification/Name/PIORsysWebURLResolved`` broadcast, as a value.
/// A link can carry both a destination and an error: when the server's deep link was unsafe, it is dropped and
/// reported in ``error`` while the web link is still delivered.
public struct ResolvedLink: Sendable, Hashable {
    /// The URL that was handed in (the tracking URL for pub-web links), exactly as received.
    public var requestedURL: URL {
        get { fields.requestedURL }
        set { fields = fields.with(requestedURL: newValue) }
    }
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
    public var isPubWeb: Bool {
        get { fields.isPubWeb }
        set { fields = fields.with(isPubWeb: newValue) }
    }
    /// Why the link could not be (fully) resolved, if it could not.
    public var error: LinkError? {
        get { fields.error }
        set { fields = fields.with(error: .some(newValue)) }
    }
    /// ``deepLinkURL``'s storage.
    var deepLink: AnswerLink? {
        get { fields.deepLink }
        set { fields = fields.with(deepLink: .some(newValue)) }
    }
    /// ``webLinkURL``'s storage.
    var webLink: AnswerLink? {
        get { fields.webLink }
        set { fields = fields.with(webLink: .some(newValue)) }
    }

    /// The link's values, in one immutable box that copies share.
    ///
    /// A handled link is copied about a dozen times on its way (into its outcome, the delivery queue, the
    /// notification, each waiter's answer): a copy of the box is one reference count, where a copy of the five
    /// values was five or more (the URL, both answer links' text, the error's message and cause). A setter, which
    /// nothing on the way calls, makes a new box.
    private var fields: Fields

    private final class Fields: Sendable {
        let requestedURL: URL
        let isPubWeb: Bool
        let error: LinkError?
        let deepLink: AnswerLink?
        let webLink: AnswerLink?

        init(requestedURL: URL, isPubWeb: Bool, error: LinkError?, deepLink: AnswerLink?, webLink: AnswerLink?) {
            self.requestedURL = requestedURL
            self.isPubWeb = isPubWeb
            self.error = error
            self.deepLink = deepLink
            self.webLink = webLink
        }

        /// A copy with the values given replaced (`nil`: kept; `.some(nil)`: cleared).
        func with(
            requestedURL: URL? = nil, isPubWeb: Bool? = nil, error: LinkError?? = nil, deepLink: AnswerLink?? = nil,
            webLink: AnswerLink?? = nil
        ) -> Fields {
            Fields(
                requestedURL: requestedURL ?? self.requestedURL, isPubWeb: isPubWeb ?? self.isPubWeb,
                error: error ?? self.error, deepLink: deepLink ?? self.deepLink, webLink: webLink ?? self.webLink)
        }
    }

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
        fields = Fields(requestedURL: requestedURL, isPubWeb: isPubWeb, error: error, deepLink: deepLink, webLink: webLink)
    }

    /// Where to send the user: the deep link, else the web link (parsed when read, like ``deepLinkURL``).
    public var destinationURL: URL? { deepLinkURL ?? webLinkURL }

    /// Equal when every value is: the URL handed in, whether it is pub-web, the error, and both destinations.
    public static func == (lhs: ResolvedLink, rhs: ResolvedLink) -> Bool {
        if lhs.fields === rhs.fields { return true }
        return lhs.requestedURL == rhs.requestedURL && lhs.isPubWeb == rhs.isPubWeb && lhs.error == rhs.error
            && lhs.deepLink == rhs.deepLink && lhs.webLink == rhs.webLink
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(requestedURL)
        hasher.combine(isPubWeb)
        hasher.combine(error)
        hasher.combine(deepLink)
        hasher.combine(webLink)
    }
}
