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
    public var deepLinkURL: URL?
    /// The web link (`webLinkUrl`), the fallback when there is no deep link.
    public var webLinkURL: URL?
    /// Whether ``requestedURL`` is a Responsys pub-web link.
    public var isPubWeb: Bool
    /// Why the link could not be (fully) resolved, if it could not.
    public var error: LinkError?

    /// Creates a resolved link.
    ///
    /// - Parameters:
    ///   - requestedURL: The URL handed in.
    ///   - deepLinkURL: The deep link, if any.
    ///   - webLinkURL: The web link, if any.
    ///   - isPubWeb: Whether the requested URL is a pub-web link.
    ///   - error: The error, if any.
    public init(requestedURL: URL, deepLinkURL: URL? = nil, webLinkURL: URL? = nil, isPubWeb: Bool, error: LinkError? = nil) {
        self.requestedURL = requestedURL
        self.deepLinkURL = deepLinkURL
        self.webLinkURL = webLinkURL
        self.isPubWeb = isPubWeb
        self.error = error
    }

    /// Where to send the user: the deep link, else the web link.
    public var destinationURL: URL? { deepLinkURL ?? webLinkURL }

    /// The notification's userInfo, as Responsys' SDK posts it: ``PIORequestedWebURL`` and the deep and web links
    /// as `String` (a link absent when `nil`), ``PIORequestedWebURLIsPubWebType`` as `Bool`, ``PIOErrorResolveWebURL``
    /// as ``LinkError`` (absent when `nil`).
    package var userInfo: [AnyHashable: Any] {
        var info = [AnyHashable: Any](minimumCapacity: 5)
        info[PIORequestedWebURL] = requestedURL.absoluteString
        info[PIORequestedWebURLIsPubWebType] = isPubWeb
        if let deepLinkURL { info[PIOResolvedDeeplinkURL] = deepLinkURL.absoluteString }
        if let webLinkURL { info[PIOResolvedWeblinkURL] = webLinkURL.absoluteString }
        if let error { info[PIOErrorResolveWebURL] = error }
        return info
    }

    /// Reads a resolved link back from a ``Foundation/NSNotification/Name/PIORsysWebURLResolved`` notification.
    ///
    /// ```swift
    /// center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
    ///     guard let link = ResolvedLink(notification: note), let destination = link.destinationURL else { return }
    ///     router.route(destination)
    /// }
    /// ```
    ///
    /// - Parameter notification: A notification.
    /// - Returns: `nil` when it is not a resolution notification or its userInfo lacks the requested URL.
    public init?(notification: Notification) {
        guard notification.name == .PIORsysWebURLResolved, let info = notification.userInfo,
              let requested = (info[PIORequestedWebURL] as? String).flatMap(URL.init(string:))
        else { return nil }
        self.init(
            requestedURL: requested,
            deepLinkURL: (info[PIOResolvedDeeplinkURL] as? String).flatMap(URL.init(string:)),
            webLinkURL: (info[PIOResolvedWeblinkURL] as? String).flatMap(URL.init(string:)),
            isPubWeb: info[PIORequestedWebURLIsPubWebType] as? Bool ?? false,
            error: info[PIOErrorResolveWebURL] as? LinkError
        )
    }
}
