import Foundation

/// The entry points shaped as `PushIOManager`'s on iOS: universal-link activities, in-app hyperlinks, push payloads
/// and opened URLs. Each hands its input to the triage and takes the decision through the manager's one
/// composition path.
extension LinkManager {
    /// Forwards a user activity, as `application(_:continue:restorationHandler:)` does on iOS.
    ///
    /// - Parameters:
    ///   - activity: The activity.
    ///   - restorationHandler: Kept for source compatibility with iOS code; never called.
    /// - Returns: `true` when the activity is a browsing-web activity on a pub-web app link: the click is then
    ///   tracked and the link resolved in the background, and one notification follows. `false` for anything
    ///   else, with no request and no notification.
    @discardableResult
    public func continueUserActivity(_ activity: UserActivity, restorationHandler: (@Sendable ([Any]?) -> Void)? = nil) -> Bool {
        handle(activity).isHandled
    }

    /// Like ``continueUserActivity(_:restorationHandler:)``, returning a handle that says whether the activation
    /// was a duplicate and gives its outcome.
    ///
    /// - Parameter activity: The activity.
    /// - Returns: The handle; not handled when the activity is not a browsing-web activity on an app link, or the
    ///   manager is shutting down.
    package func handle(_ activity: UserActivity) -> LinkHandle {
        take(triage.activity(activity), limit: nil, url: activity.webpageURL)
    }

    /// Handles a hyperlink tapped in an in-app message.
    ///
    /// - With ``executeRsysWebURL`` on: a pub-web link (app or non-app) is resolved and notified; any other URL is
    ///   passed through in a notification with `isPubWeb == false`.
    /// - With it off: the URL is handed to the opener; no notification.
    /// - A URL with a `javascript`, `data`, `file` or `vbscript` scheme is never opened: it yields a notification
    ///   with an ``LinkError/Code/unsafeLink`` error, whatever the flag.
    ///
    /// What happened then arrives as the notification (and on ``results(bufferingNewest:)``), as an opener call, or
    /// as ``LinkEvent``s.
    ///
    /// - Parameter url: The tapped URL.
    /// - Returns: Whether the manager took the URL: `false` only while it is shutting down.
    @discardableResult
    public func handleInAppHyperlink(_ url: URL) -> Bool {
        inAppHyperlink(url).isHandled
    }

    /// Like ``handleInAppHyperlink(_:)``, returning the handle whose outcome says where the link went.
    package func inAppHyperlink(_ url: URL) -> LinkHandle {
        take(triage.inAppHyperlink(url, executes: executeRsysWebURL), limit: nil, url: url)
    }

    /// Handles a push notification's payload: the URL under `"u"`, as Responsys sends it (a `String` or a `URL`).
    ///
    /// A pub-web URL is treated like an in-app hyperlink (see ``handleInAppHyperlink(_:)``); any other URL goes
    /// to the router, then the opener; an unsafe one yields an ``LinkError/Code/unsafeLink`` notification.
    ///
    /// - Parameter userInfo: The payload.
    /// - Returns: Whether the manager took the payload's link: `false` when there is no usable `"u"`, or the manager
    ///   is shutting down.
    @discardableResult
    public func didReceiveRemoteNotification(_ userInfo: [String: Any]) -> Bool {
        remoteNotification(userInfo).isHandled
    }

    /// Like ``didReceiveRemoteNotification(_:)``, returning the handle whose outcome says where the link went.
    package func remoteNotification(_ userInfo: [String: Any]) -> LinkHandle {
        take(triage.push(userInfo, executes: executeRsysWebURL), limit: nil, url: nil)
    }

    /// Handles a URL the app was opened with (a custom-scheme deep link, the pre-universal-link path).
    ///
    /// A pub-web app link is handled as by ``continueUserActivity(_:restorationHandler:)``; another URL is given
    /// to the router.
    ///
    /// - Parameter url: The URL.
    /// - Returns: Whether the manager handled it (started a resolution, or a route accepted it).
    @discardableResult
    public func openURL(_ url: URL) -> Bool {
        // Refused silently while shutting down: a URL the app was opened with is not a link the manager counts.
        guard gate.isOpen else { return false }
        return take(triage.openURL(url), limit: nil, url: url).isHandled
    }
}
