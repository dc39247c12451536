import Foundation
import LinkRouting
import Synchronization
import _LinkKitLocking

/// Handles email-to-app universal links the way Responsys' `PushIOManager` does on iOS, on plain values.
///
/// Forward what the platform hands you; the manager recognises pub-web links, tracks the click and resolves the
/// link with one request, and posts exactly one ``Foundation/NSNotification/Name/PIORsysWebURLResolved``
/// notification per handled link:
///
/// ```swift
/// let manager = LinkManager.shared
/// NotificationCenter.default.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
///     guard let link = ResolvedLink(notification: note) else { return }
///     show(link.deepLinkURL ?? link.webLinkURL)
/// }
/// manager.executeRsysWebURL = true
/// manager.continueUserActivity(UserActivity(browsingWeb: url))
/// ```
///
/// Guarantees: the same URL activated again while it is resolving, or within
/// ``Configuration/duplicateWindow`` after, makes no second request and no second notification; every handled
/// link gets its notification within the resolution deadline; notifications produced while delivery is paused
/// are held in order until ``resumeDelivery()``.
public final class LinkManager: Sendable {
    /// Manager settings.
    public struct Configuration: Sendable, Hashable {
        /// Which paths are pub-web links.
        public var recognition: PubWebLinkRecognizer.Configuration
        /// How links are resolved: deadline, body cap, retry, and the ``ResolutionPolicy``.
        public var resolution: LinkResolver.Configuration
        /// How long after a resolution completed the same URL is still treated as a duplicate. Default 2 s.
        public var duplicateWindow: Duration
        /// Hold notifications until ``LinkManager/resumeDelivery()``, for cold starts. Default `false`.
        public var startsPaused: Bool
        /// The initial value of ``LinkManager/executeRsysWebURL``. Default `false`, as in the Responsys SDK.
        public var executeRsysWebURL: Bool

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - recognition: Pub-web paths.
        ///   - resolution: Resolver settings and policy.
        ///   - duplicateWindow: Duplicate window after completion.
        ///   - startsPaused: Hold notifications until resumed.
        ///   - executeRsysWebURL: Initial in-app hyperlink mode.
        public init(
            recognition: PubWebLinkRecognizer.Configuration = .init(),
            resolution: LinkResolver.Configuration = .init(),
            duplicateWindow: Duration = .seconds(2),
            startsPaused: Bool = false,
            executeRsysWebURL: Bool = false
        ) {
            self.recognition = recognition
            self.resolution = resolution
            self.duplicateWindow = duplicateWindow
            self.startsPaused = startsPaused
            self.executeRsysWebURL = executeRsysWebURL
        }
    }

    /// A manager with the default configuration on `NotificationCenter.default`.
    public static let shared = LinkManager()

    /// The settings the manager was created with.
    public let configuration: Configuration
    /// Recognises pub-web links.
    public let recognizer: PubWebLinkRecognizer
    /// Resolves them.
    public let resolver: LinkResolver

    private let broadcaster: LinkBroadcaster
    private let registry: ActivationRegistry
    private let opener: URLOpener
    /// The router resolved links are handed to, if any.
    public let router: LinkRouter?
    private let clock: LinkClock
    private let executeFlag: Mutex<Bool>

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - configuration: Settings.
    ///   - transport: Sends resolution requests; by default one ``URLSessionTransport`` for this manager.
    ///   - notificationCenter: Where notifications are posted.
    ///   - opener: Opens URLs that are not resolved (in-app hyperlinks with ``executeRsysWebURL`` off, push
    ///     URLs no route takes, resolved links no route takes when a router is set).
    ///   - router: Where resolved links go after their notification: the deep link, else the web link, else the
    ///     opener. `nil` (the default) leaves routing to the host's observer.
    ///   - clock: The clock of deadlines and the duplicate window.
    public init(
        configuration: Configuration = .init(),
        transport: any LinkTransport = LinkResolver.defaultTransport(),
        notificationCenter: NotificationCenter = .default,
        opener: URLOpener = .none,
        router: LinkRouter? = nil,
        clock: LinkClock = .continuous
    ) {
        self.configuration = configuration
        self.recognizer = PubWebLinkRecognizer(configuration: configuration.recognition)
        self.resolver = LinkResolver(configuration: configuration.resolution, transport: transport, clock: clock)
        self.broadcaster = LinkBroadcaster(center: notificationCenter, startsPaused: configuration.startsPaused)
        self.registry = ActivationRegistry(window: configuration.duplicateWindow)
        self.opener = opener
        self.router = router
        self.clock = clock
        self.executeFlag = Mutex(configuration.executeRsysWebURL)
    }

    /// Whether hyperlinks tapped in in-app messages (and push URLs on pub-web links) are resolved and notified
    /// (`true`), or handed to the opener (`false`, the default). Thread-safe.
    public var executeRsysWebURL: Bool {
        get { executeFlag.withTrackedLock { $0 } }
        set { executeFlag.withTrackedLock { $0 = newValue } }
    }

    // MARK: Universal links

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
    /// - Returns: The handle; not handled when the activity is not a browsing-web activity on an app link.
    public func handle(_ activity: UserActivity) -> LinkHandle {
        guard activity.activityType == UserActivity.browsingWeb, let url = activity.webpageURL,
              recognizer.kind(of: url) == .appLink
        else {
            return LinkHandle(url: activity.webpageURL, isHandled: false, outcome: LinkOutcome())
        }
        return startResolution(of: url)
    }

    // MARK: In-app messages and push

    /// Handles a hyperlink tapped in an in-app message.
    ///
    /// - With ``executeRsysWebURL`` on: a pub-web link (app or non-app) is resolved and notified; any other URL is
    ///   passed through in a notification with `isPubWeb == false`.
    /// - With it off: the URL is handed to the opener; no notification.
    /// - A URL with a `javascript`, `data`, `file` or `vbscript` scheme is never opened: it yields a notification
    ///   with an ``LinkError/Code/unsafeLink`` error, whatever the flag.
    ///
    /// - Parameter url: The tapped URL.
    /// - Returns: The handle.
    @discardableResult
    public func handleInAppHyperlink(_ url: URL) -> LinkHandle {
        if Self.isUnsafe(url) {
            return notifyImmediately(ResolvedLink(requestedURL: url, isPubWeb: false, error: unsafeInput(url)), url: url)
        }
        guard executeRsysWebURL else {
            opener.open(url)
            return LinkHandle(url: url, isHandled: true, outcome: LinkOutcome(openedURL: url))
        }
        if recognizer.kind(of: url).isPubWeb {
            return startResolution(of: url)
        }
        let isWeb = ["http", "https"].contains(url.scheme?.lowercased() ?? "")
        let passThrough = ResolvedLink(
            requestedURL: url, deepLinkURL: isWeb ? nil : url, webLinkURL: isWeb ? url : nil, isPubWeb: false)
        return notifyImmediately(passThrough, url: url)
    }

    /// Handles a push notification's payload: the URL under `"u"`.
    ///
    /// A pub-web URL is treated like an in-app hyperlink (see ``handleInAppHyperlink(_:)``); any other URL goes
    /// to the router, then the opener; an unsafe one yields an ``LinkError/Code/unsafeLink`` notification.
    ///
    /// - Parameter userInfo: The payload.
    /// - Returns: The handle; not handled when there is no usable `"u"`.
    @discardableResult
    public func didReceiveRemoteNotification(_ userInfo: [String: Any]) -> LinkHandle {
        let url: URL?
        switch userInfo["u"] {
        case let string as String: url = Self.absoluteURL(string)
        case let value as URL: url = value
        default: url = nil
        }
        guard let url else { return LinkHandle(url: nil, isHandled: false, outcome: LinkOutcome()) }
        if Self.isUnsafe(url) || recognizer.kind(of: url).isPubWeb {
            return handleInAppHyperlink(url)
        }
        if let router, router.route(url) {
            return LinkHandle(url: url, isHandled: true, outcome: LinkOutcome(routedURL: url))
        }
        opener.open(url)
        return LinkHandle(url: url, isHandled: true, outcome: LinkOutcome(openedURL: url))
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
        if Self.isUnsafe(url) { return false }
        if recognizer.kind(of: url) == .appLink {
            return startResolution(of: url).isHandled
        }
        return router?.route(url) ?? false
    }

    // MARK: Without notifications

    /// Resolves a pub-web URL and returns the result, without notification, coalescing or routing.
    ///
    /// - Parameter url: The tracking URL.
    /// - Returns: The resolved link.
    /// - Throws: ``LinkError``.
    public func resolve(_ url: URL) async throws(LinkError) -> ResolvedLink {
        try await resolver.resolve(url)
    }

    // MARK: Delivery

    /// Holds notifications from now on, in order, until ``resumeDelivery()``.
    public func pauseDelivery() {
        broadcaster.pauseDelivery()
    }

    /// Delivers held notifications in order and posts new ones as they come.
    public func resumeDelivery() {
        broadcaster.resumeDelivery()
    }

    /// Whether notifications are being held.
    public var isDeliveryPaused: Bool { broadcaster.isPaused }

    // MARK: Internals

    private func startResolution(of url: URL) -> LinkHandle {
        let key = Self.coalescingKey(url)
        let startedAt = clock.now
        let (task, isDuplicate) = registry.claim(key, now: startedAt) {
            // A tapped link is user-initiated work: it must not queue behind background jobs of the host.
            Task(priority: .userInitiated) { [self] in
                let link: ResolvedLink
                do throws(LinkError) {
                    link = try await resolver.resolve(url, startedAt: startedAt)
                } catch {
                    link = ResolvedLink(requestedURL: url, isPubWeb: true, error: error)
                }
                let outcome = deliver(link)
                registry.complete(key, now: clock.now)
                return outcome
            }
        }
        return LinkHandle(url: url, isHandled: true, isDuplicate: isDuplicate, task: task)
    }

    private func notifyImmediately(_ link: ResolvedLink, url: URL) -> LinkHandle {
        LinkHandle(url: url, isHandled: true, outcome: deliver(link))
    }

    /// Posts the link's one notification, then routes it when a router is set: the deep link, else the web link,
    /// else the opener. The requested URL itself is never handled again.
    private func deliver(_ link: ResolvedLink) -> LinkOutcome {
        broadcaster.post(link)
        var outcome = LinkOutcome(resolvedLink: link)
        guard let router, link.error == nil || link.destinationURL != nil else { return outcome }
        for candidate in [link.deepLinkURL, link.webLinkURL].compactMap({ $0 }) where candidate != link.requestedURL {
            if router.route(candidate) {
                outcome.routedURL = candidate
                return outcome
            }
        }
        if let fallback = link.webLinkURL ?? link.deepLinkURL, fallback != link.requestedURL {
            opener.open(fallback)
            outcome.openedURL = fallback
        }
        return outcome
    }

    private func unsafeInput(_ url: URL) -> LinkError {
        LinkError(
            code: .unsafeLink,
            message: "Refused \(url.scheme ?? "")-scheme URL: javascript, data, file and vbscript links are never opened."
        )
    }

    /// The identity of a click for coalescing: scheme and host case-folded (trailing dot dropped), port, path and
    /// query exactly as received; the fragment never reaches the server, so it does not make another click.
    static func coalescingKey(_ url: URL) -> String {
        var host = (url.host(percentEncoded: true) ?? "").lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        var key = (url.scheme ?? "").lowercased() + "://" + host
        if let port = url.port { key += ":\(port)" }
        key += url.path(percentEncoded: true)
        if let query = url.query(percentEncoded: true) { key += "?" + query }
        return key
    }

    static func isUnsafe(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return ResolutionResponse.unsafeDeepLinkSchemes.contains(scheme)
    }

    static func absoluteURL(_ string: String) -> URL? {
        guard let url = URL(string: string), url.scheme?.isEmpty == false else { return nil }
        return url
    }
}
