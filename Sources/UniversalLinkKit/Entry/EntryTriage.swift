import Foundation

/// What an entry point does with what it was handed: the first step of every activation, decided in one place so
/// that every entry point takes the same road.
///
/// It only decides: nothing is requested, posted, routed or opened here.
struct EntryTriage: Sendable {
    /// The decision for one input.
    enum Decision {
        /// Not for the manager: not handled, nothing happens.
        case ignore
        /// A server call on a link that is not a pub-web app link: refused with this error, nothing requested.
        case refuse(LinkError)
        /// A pub-web link: checked by the resolver's policy, claimed, resolved, notified.
        case resolve(URL)
        /// Notified at once, with no request: an unsafe link's error, or a link passed through as it is.
        case notify(ResolvedLink)
        /// Handed to the opener (in-app hyperlinks while ``LinkManager/executeRsysWebURL`` is off).
        case open(URL)
        /// Given to the router, else the opener (push URLs that are not pub-web links).
        case dispatch(URL)
        /// Given to the router only (``LinkManager/openURL(_:)`` on a URL that is not an app link).
        case route(URL)
    }

    let recognizer: PubWebLinkRecognizer

    /// A user activity: a browsing-web activity on a pub-web app link is resolved; anything else is ignored.
    func activity(_ activity: UserActivity) -> Decision {
        guard activity.activityType == UserActivity.browsingWeb, let url = activity.webpageURL else { return .ignore }
        guard recognizer.kind(of: url) == .appLink else { return .ignore }
        return .resolve(url)
    }

    /// A link a server hands in: it must be a pub-web app link.
    func serverLink(_ url: URL) -> Decision {
        guard recognizer.kind(of: url) == .appLink else {
            let paths = recognizer.configuration.appLinkPaths.joined(separator: ", ")
            return .refuse(.notPubWebLink(url, appLinkPaths: paths))
        }
        return .resolve(url)
    }

    /// A hyperlink tapped in an in-app message.
    ///
    /// - Parameters:
    ///   - url: The tapped URL.
    ///   - executes: ``LinkManager/executeRsysWebURL``.
    func inAppHyperlink(_ url: URL, executes: Bool) -> Decision {
        if LinkSafety.isUnsafe(url) {
            return .notify(ResolvedLink(requestedURL: url, isPubWeb: false, error: LinkSafety.unsafeInputError(url)))
        }
        guard executes else { return .open(url) }
        if recognizer.kind(of: url).isPubWeb { return .resolve(url) }
        let isWeb = LinkSafety.isWeb(url)
        return .notify(ResolvedLink(
            requestedURL: url, deepLinkURL: isWeb ? nil : url, webLinkURL: isWeb ? url : nil, isPubWeb: false))
    }

    /// A push notification's payload: its `"u"` URL.
    ///
    /// - Parameters:
    ///   - userInfo: The payload.
    ///   - executes: ``LinkManager/executeRsysWebURL``.
    func push(_ userInfo: [String: Any], executes: Bool) -> Decision {
        guard let url = PushPayload(userInfo: userInfo).url else { return .ignore }
        if LinkSafety.isUnsafe(url) || recognizer.kind(of: url).isPubWeb {
            return inAppHyperlink(url, executes: executes)
        }
        return .dispatch(url)
    }

    /// A URL the app was opened with.
    func openURL(_ url: URL) -> Decision {
        if LinkSafety.isUnsafe(url) { return .ignore }
        return recognizer.kind(of: url) == .appLink ? .resolve(url) : .route(url)
    }
}
