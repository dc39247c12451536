import Foundation
import LinkRouting
import Synchronization
internal import _LinkKitLocking

/// Handles email-to-app universal links the way Responsys' `PushIOManager` does on iOS, on plain values.
///
/// Forward what the platform hands you; the manager recognises pub-web links, tracks the click and resolves the
/// link with one request, and posts exactly one ``Foundation/NSNotification/Name/PIORsysWebURLResolved``
/// notification per handled link:
///
/// ```swift
/// let manager = LinkManager.shared
/// NotificationCenter.default.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
///     guard let link = ResolvedLink(notification: note), let destination = link.destinationURL else { return }
///     show(destination)
/// }
/// manager.executeRsysWebURL = true
/// manager.continueUserActivity(UserActivity(browsingWeb: url))
/// ```
///
/// A server awaits one result per incoming link instead (see ``resolve(_:timeout:)``):
///
/// ```swift
/// let manager = LinkManager(configuration: .init(brandedDomains: ["news.example.com"], timeout: .seconds(5)))
/// let outcome = try await manager.resolve(url)
/// redirect(to: outcome.resolvedLink?.destinationURL)
/// ```
///
/// Guarantees: the same URL activated again while it is resolving, or within
/// ``Configuration/duplicateWindow`` after, makes no second request and no second notification, and gets the
/// original's result; every handled link gets exactly one notification within the resolution deadline, also across
/// ``shutdown(gracePeriod:)``; notifications produced while delivery is paused are held in order until
/// ``resumeDelivery()``; observers never run under a lock of the manager's or on the thread of a resolution.
public final class LinkManager: Sendable {
    /// Manager settings.
    ///
    /// The common case fits in one line:
    /// ```swift
    /// let configuration = LinkManager.Configuration(brandedDomains: ["news.example.com"], timeout: .seconds(5))
    /// ```
    public struct Configuration: Sendable {
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
        /// Receives a ``LinkEvent`` for every step of every link, for logs and metrics. Default `nil`: no event is
        /// built.
        public var eventHandler: LinkEventHandler?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - recognition: Pub-web paths.
        ///   - resolution: Resolver settings and policy.
        ///   - duplicateWindow: Duplicate window after completion.
        ///   - startsPaused: Hold notifications until resumed.
        ///   - executeRsysWebURL: Initial in-app hyperlink mode.
        ///   - eventHandler: Receives the manager's events.
        public init(
            recognition: PubWebLinkRecognizer.Configuration = .init(),
            resolution: LinkResolver.Configuration = .init(),
            duplicateWindow: Duration = .seconds(2),
            startsPaused: Bool = false,
            executeRsysWebURL: Bool = false,
            eventHandler: LinkEventHandler? = nil
        ) {
            self.recognition = recognition
            self.resolution = resolution
            self.duplicateWindow = duplicateWindow
            self.startsPaused = startsPaused
            self.executeRsysWebURL = executeRsysWebURL
            self.eventHandler = eventHandler
        }

        /// Creates a configuration that resolves links of these branded domains only, with this deadline, and the
        /// defaults for everything else.
        ///
        /// - Parameters:
        ///   - brandedDomains: The hosts links may be resolved on (see ``ResolutionPolicy/brandedDomains``).
        ///   - timeout: The deadline of one resolution, retry and redirects included. Default 10 s.
        public init(brandedDomains: [String], timeout: Duration = .seconds(10)) {
            self.init()
            self.brandedDomains = brandedDomains
            self.timeout = timeout
        }

        /// The hosts links may be resolved on; empty (the default) allows any public host the policy accepts.
        /// Shorthand for `resolution.policy.brandedDomains`.
        public var brandedDomains: [String] {
            get { resolution.policy.brandedDomains }
            set { resolution.policy.brandedDomains = newValue }
        }

        /// The deadline of one resolution, retry and redirects included. Shorthand for `resolution.timeout`.
        public var timeout: Duration {
            get { resolution.timeout }
            set { resolution.timeout = newValue }
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
    /// The router resolved links are handed to, if any.
    public var router: LinkRouter? { dispatcher.router }

    private let broadcaster: LinkBroadcaster
    private let registry: ActivationRegistry
    private let dispatcher: LinkDispatcher
    private let clock: LinkClock
    private let executeFlag: Mutex<Bool>
    /// Whether links are taken, and how many entry points are taking one right now: ``shutdown(gracePeriod:)`` closes
    /// it and waits for those, so no link slips in between its check and the count of what is in flight.
    private let admission = Mutex(Admission())
    /// The transport the manager created, which its shutdown releases.
    private let ownedTransport: (any LinkTransport)?

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - configuration: Settings.
    ///   - transport: Sends resolution requests. `nil` (the default): one of the manager's own,
    ///     ``LinkResolver/defaultTransport()`` (``CurlTransport`` on Linux), released by ``shutdown(gracePeriod:)``;
    ///     a transport given here is never shut down by the manager (it may be shared).
    ///   - notificationCenter: Where notifications are posted.
    ///   - opener: Opens URLs that are not resolved (in-app hyperlinks with ``executeRsysWebURL`` off, push
    ///     URLs no route takes, resolved links no route takes when a router is set).
    ///   - router: Where resolved links go after their notification: the deep link, else the web link, else the
    ///     opener. `nil` (the default) leaves routing to the host's observer.
    ///   - clock: The clock of deadlines and the duplicate window.
    public convenience init(
        configuration: Configuration = .init(),
        transport: (any LinkTransport)? = nil,
        notificationCenter: NotificationCenter = .default,
        opener: URLOpener = .none,
        router: LinkRouter? = nil,
        clock: LinkClock = .continuous
    ) {
        self.init(
            configuration: configuration, transport: transport ?? LinkResolver.defaultTransport(),
            ownsTransport: transport == nil, notificationCenter: notificationCenter, opener: opener, router: router,
            clock: clock)
    }

    /// Creates a manager that shuts `transport` down at ``shutdown(gracePeriod:)`` when it `ownsTransport`.
    init(
        configuration: Configuration,
        transport: any LinkTransport,
        ownsTransport: Bool,
        notificationCenter: NotificationCenter,
        opener: URLOpener,
        router: LinkRouter?,
        clock: LinkClock
    ) {
        self.configuration = configuration
        self.recognizer = PubWebLinkRecognizer(configuration: configuration.recognition)
        self.ownedTransport = ownsTransport ? transport : nil
        self.resolver = LinkResolver(configuration: configuration.resolution, transport: transport, clock: clock)
        self.broadcaster = LinkBroadcaster(
            center: notificationCenter, startsPaused: configuration.startsPaused, events: configuration.eventHandler)
        self.registry = ActivationRegistry(window: configuration.duplicateWindow)
        self.dispatcher = LinkDispatcher(router: router, opener: opener)
        self.clock = clock
        self.executeFlag = Mutex(configuration.executeRsysWebURL)
    }

    /// Whether hyperlinks tapped in in-app messages (and push URLs on pub-web links) are resolved and notified
    /// (`true`), or handed to the opener (`false`, the default). Thread-safe.
    public var executeRsysWebURL: Bool {
        get { executeFlag.withTrackedLock { $0 } }
        set { executeFlag.withTrackedLock { $0 = newValue } }
    }

    // MARK: On a server

    /// Handles one incoming link and returns its result: the one call a server makes per request.
    ///
    /// The link must be a pub-web app link; it is coalesced with concurrent and recent activations of the same click
    /// (a duplicate gets the original's result as soon as it exists, and makes no request), resolved, broadcast
    /// (exactly one notification per handled link, and one element of ``results(bufferingNewest:)``), and routed
    /// when a router is set.
    ///
    /// ```swift
    /// do {
    ///     let outcome = try await manager.resolve(url, timeout: .seconds(2))
    ///     if let destination = outcome.resolvedLink?.destinationURL { redirect(to: destination) }
    /// } catch {
    ///     respond(status: error.code == .notPubWebLink ? 400 : 503)
    /// }
    /// ```
    ///
    /// A failed resolution is a result too: ``LinkOutcome/resolvedLink`` is always set and carries the
    /// ``ResolvedLink/error`` the notification carries.
    ///
    /// - Parameters:
    ///   - url: The tracking link, as received.
    ///   - timeout: How long this call waits at most; never longer than the configured deadline. A resolution this
    ///     call starts ends by then; one it joins goes on for its other callers when this call gives up.
    /// - Returns: The result: the resolved link, whether the call joined an earlier one, where the link was routed
    ///   or opened.
    /// - Throws: ``LinkError`` with ``LinkError/Code/notPubWebLink`` (not a pub-web app link: no request),
    ///   ``LinkError/Code/shuttingDown`` (after ``shutdown(gracePeriod:)`` began), ``LinkError/Code/cancelled``
    ///   (the calling task was cancelled) or ``LinkError/Code/timeout`` (this call's `timeout` passed while it waited
    ///   for a resolution it joined).
    public func resolve(_ url: URL, timeout: Duration? = nil) async throws(LinkError) -> LinkOutcome {
        guard recognizer.kind(of: url) == .appLink else {
            let error = LinkError(
                code: .notPubWebLink,
                message: "\(url.redactedString) is not a pub-web app link"
                    + " (\(configuration.recognition.appLinkPaths.joined(separator: ", ")) on an http(s) host):"
                    + " nothing was requested. Open it as it is."
            )
            emit(.refused, url, errorCode: error.code, reason: error.message)
            throw error
        }
        let giveUpAt = timeout.map { clock.now + min($0, configuration.resolution.timeout) }
        guard let handle = admit(url, deadline: giveUpAt) else { throw shuttingDownError(url) }
        guard let pending = handle.pending else { return await handle.outcome }
        switch await pending.wait(giveUpAt: giveUpAt, clock: clock, url: url) {
        case .success(var outcome):
            outcome.isDuplicate = handle.isDuplicate
            return outcome
        case .failure(let error):
            throw error
        }
    }

    /// Subscribes to the links the manager broadcasts from now on, as an `AsyncSequence`: the same links, in the same
    /// order, as the notifications.
    ///
    /// - Parameter limit: How many links the subscription keeps for a consumer that falls behind; past that the
    ///   oldest are dropped. Default 1 024.
    /// - Returns: The links; the sequence ends after ``shutdown(gracePeriod:)``.
    public func results(bufferingNewest limit: Int = 1024) -> LinkResults {
        broadcaster.subscribe(bufferingNewest: limit)
    }

    /// Stops taking links, lets the resolutions in flight finish within `gracePeriod`, cancels the rest, and
    /// returns once every handled link's notification has been delivered.
    ///
    /// Links handed in after the call starts are refused at once (``resolve(_:timeout:)`` throws
    /// ``LinkError/Code/shuttingDown``; the PushIOManager-shaped entry points return not handled). Cancelled
    /// resolutions are still notified, with ``LinkError/Code/cancelled``. Notifications held by
    /// ``pauseDelivery()`` are delivered. The ``results(bufferingNewest:)`` sequences end. The transport the manager
    /// created itself is released (one given to ``init(configuration:transport:notificationCenter:opener:router:clock:)``
    /// is left to its owner). Calling it again waits for the same things.
    ///
    /// Cancelling the task that runs the shutdown ends the grace period: in-flight resolutions are cancelled (and
    /// still notified) at once.
    ///
    /// - Parameter gracePeriod: How long in-flight resolutions may take before they are cancelled. Default 10 s.
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        await closeAdmission()
        let graceEnds = clock.now + gracePeriod
        while case let flights = registry.inFlight, !flights.isEmpty {
            // A cancelled shutdown ends the grace period at once (its waits would return at once, and spin).
            if clock.now >= graceEnds || Task.isCancelled {
                for flight in flights { flight.task.cancel() }
                for flight in flights { _ = await flight.pending.value }
            } else {
                for flight in flights {
                    _ = await flight.pending.wait(giveUpAt: graceEnds, clock: clock, url: URL(fileURLWithPath: "/"))
                }
            }
        }
        broadcaster.resumeDelivery()
        await broadcaster.flush()
        broadcaster.finishSubscriptions()
        ownedTransport?.shutdown()
    }

    /// Whether the manager takes new links (`false` once ``shutdown(gracePeriod:)`` began).
    public var isAcceptingLinks: Bool { admission.withTrackedLock { $0.isOpen } }

    /// Waits until no resolution is in flight and every notification posted so far has been delivered (held ones
    /// only once delivery resumes): after it, what the links did (notifications, routes, opener calls) has happened.
    public func waitUntilIdle() async {
        // An observer, route or opener may hand in another link while the last ones are delivered: go round until
        // a delivery round started nothing new.
        while true {
            while case let flights = registry.inFlight, !flights.isEmpty {
                for flight in flights { _ = await flight.pending.value }
            }
            await broadcaster.flush()
            // Not `pendingCount`: it no longer counts the notification being delivered, whose observers may still
            // hand in a link.
            if registry.inFlight.isEmpty, broadcaster.undeliveredCount == 0 { return }
        }
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
    /// - Returns: The handle; not handled when the activity is not a browsing-web activity on an app link, or the
    ///   manager is shutting down.
    public func handle(_ activity: UserActivity) -> LinkHandle {
        guard activity.activityType == UserActivity.browsingWeb, let url = activity.webpageURL,
              recognizer.kind(of: url) == .appLink, let handle = admit(url, deadline: nil)
        else {
            return LinkHandle(url: activity.webpageURL, isHandled: false, outcome: LinkOutcome())
        }
        return handle
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
    /// - Returns: The handle; not handled while the manager is shutting down.
    @discardableResult
    public func handleInAppHyperlink(_ url: URL) -> LinkHandle {
        whileAccepting { takeInAppHyperlink(url) } ?? refuseForShutdown(url)
    }

    private func takeInAppHyperlink(_ url: URL) -> LinkHandle {
        if LinkSafety.isUnsafe(url) {
            let link = ResolvedLink(requestedURL: url, isPubWeb: false, error: LinkSafety.unsafeInputError(url))
            return notifyImmediately(link, url: url)
        }
        guard executeRsysWebURL else {
            return opened(dispatcher.open(url), url: url)
        }
        if recognizer.kind(of: url).isPubWeb {
            return admit(url, deadline: nil) ?? refuseForShutdown(url)
        }
        let isWeb = LinkSafety.isWeb(url)
        let passThrough = ResolvedLink(
            requestedURL: url, deepLinkURL: isWeb ? nil : url, webLinkURL: isWeb ? url : nil, isPubWeb: false)
        return notifyImmediately(passThrough, url: url)
    }

    /// Handles a push notification's payload: the URL under `"u"` (see ``PushPayload``).
    ///
    /// A pub-web URL is treated like an in-app hyperlink (see ``handleInAppHyperlink(_:)``); any other URL goes
    /// to the router, then the opener; an unsafe one yields an ``LinkError/Code/unsafeLink`` notification.
    ///
    /// - Parameter userInfo: The payload.
    /// - Returns: The handle; not handled when there is no usable `"u"`, or the manager is shutting down.
    @discardableResult
    public func didReceiveRemoteNotification(_ userInfo: [String: Any]) -> LinkHandle {
        guard let url = PushPayload(userInfo: userInfo).url else {
            return LinkHandle(url: nil, isHandled: false, outcome: LinkOutcome())
        }
        if LinkSafety.isUnsafe(url) || recognizer.kind(of: url).isPubWeb {
            return handleInAppHyperlink(url)
        }
        return whileAccepting { opened(dispatcher.dispatch(url), url: url) } ?? refuseForShutdown(url)
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
        if LinkSafety.isUnsafe(url) || !isAcceptingLinks { return false }
        if recognizer.kind(of: url) == .appLink {
            return admit(url, deadline: nil)?.isHandled ?? false
        }
        return whileAccepting { () -> Bool in
            guard let route = router?.routeReturningMatch(url) else { return false }
            emit(.routed, url, reason: route.pattern, target: url)
            return true
        } ?? false
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

    /// Takes a pub-web link: refuses it without a slot when the policy does (credentials included), else starts its
    /// resolution or joins the one of the same click.
    ///
    /// - Returns: The handle, or `nil` when the manager is shutting down.
    private func admit(_ url: URL, deadline: ContinuousClock.Instant?) -> LinkHandle? {
        guard let handle = whileAccepting({ take(url, deadline: deadline) }) else {
            emit(.refused, url, errorCode: .shuttingDown)
            return nil
        }
        return handle
    }

    private func take(_ url: URL, deadline: ContinuousClock.Instant?) -> LinkHandle {
        emit(.received, url)
        if let refusal = configuration.resolution.policy.check(url) {
            // Before the registry: a refused URL (one with credentials, say) must never claim or join the slot of
            // the clean URL it would otherwise share a key with.
            emit(.refused, url, errorCode: refusal.code, reason: refusal.message)
            return notifyImmediately(ResolvedLink(requestedURL: url, isPubWeb: true, error: refusal), url: url)
        }
        let startedAt = clock.now
        let configured = startedAt + configuration.resolution.timeout
        let resolutionDeadline = deadline.map { min($0, configured) } ?? configured
        let key = Self.coalescingKey(url)
        let (resolution, isDuplicate) = registry.claim(key, now: startedAt, deadline: resolutionDeadline) { pending in
            // A tapped link is user-initiated work: it must not queue behind background jobs of the host.
            Task(priority: .userInitiated) { [self] in
                let link = await resolve(url, startedAt: startedAt, deadline: resolutionDeadline)
                let outcome = deliver(link)
                registry.complete(key, now: clock.now)
                pending.complete(outcome)
            }
        }
        if isDuplicate { emit(.coalesced, url) }
        return LinkHandle(url: url, isHandled: true, isDuplicate: isDuplicate, pending: resolution.pending)
    }

    /// One resolution, reported as events; a failure is a link with an error.
    private func resolve(_ url: URL, startedAt: ContinuousClock.Instant, deadline: ContinuousClock.Instant) async -> ResolvedLink {
        // Without a handler the resolver gets no hook at all: the hot path builds no event.
        var onStep: (@Sendable (ResolutionStep) -> Void)?
        if let handler = configuration.eventHandler {
            onStep = { step in
                if let event = Self.event(for: step, of: url) { handler(event) }
            }
        }
        do throws(LinkError) {
            let link = try await resolver.resolve(url, startedAt: startedAt, deadline: deadline, onStep: onStep)
            emit(.resolved, url, duration: clock.now - startedAt)
            return link
        } catch {
            emit(.failed, url, duration: clock.now - startedAt, errorCode: error.code, reason: error.message)
            return ResolvedLink(requestedURL: url, isPubWeb: true, error: error)
        }
    }

    /// The public event of a resolver step; a failed request shows up as the retry or the failure that follows it.
    private static func event(for step: ResolutionStep, of url: URL) -> LinkEvent? {
        switch step {
        case let .requestSent(attempt, requested):
            LinkEvent(.requestSent, url: url, attempt: attempt, target: requested == url.redacted ? nil : requested)
        case let .answered(attempt, statusCode, bytes, duration):
            LinkEvent(.answered, url: url, attempt: attempt, statusCode: statusCode, bytes: bytes, duration: duration)
        case let .retrying(reason, after):
            LinkEvent(.retrying, url: url, attempt: 2, duration: after, reason: reason)
        case let .redirected(target):
            LinkEvent(.redirected, url: url, target: target)
        case .requestFailed:
            nil
        }
    }

    private func notifyImmediately(_ link: ResolvedLink, url: URL) -> LinkHandle {
        LinkHandle(url: url, isHandled: true, outcome: deliver(link))
    }

    private func opened(_ outcome: LinkOutcome, url: URL) -> LinkHandle {
        report(outcome, url: url)
        return LinkHandle(url: url, isHandled: true, outcome: outcome)
    }

    /// Runs `body` as one admission, or returns `nil` once shutdown began.
    private func whileAccepting<T>(_ body: () -> T) -> T? {
        let admitted = admission.withTrackedLock { admission in
            guard admission.isOpen else { return false }
            admission.taking += 1
            return true
        }
        guard admitted else { return nil }
        defer {
            let drained = admission.withTrackedLock { admission in
                admission.taking -= 1
                guard admission.taking == 0, !admission.isOpen else { return [CheckedContinuation<Void, Never>]() }
                defer { admission.drainWaiters.removeAll() }
                return admission.drainWaiters
            }
            for waiter in drained { waiter.resume() }
        }
        return body()
    }

    /// Stops taking links and returns once every entry point that was taking one has finished.
    private func closeAdmission() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let drained = admission.withTrackedLock { admission in
                admission.isOpen = false
                guard admission.taking > 0 else { return true }
                admission.drainWaiters.append(continuation)
                return false
            }
            if drained { continuation.resume() }
        }
    }

    private func refuseForShutdown(_ url: URL) -> LinkHandle {
        emit(.refused, url, errorCode: .shuttingDown)
        return LinkHandle(url: url, isHandled: false, outcome: LinkOutcome())
    }

    /// Posts the link's one notification, then hands it to the dispatcher.
    private func deliver(_ link: ResolvedLink) -> LinkOutcome {
        broadcaster.post(link)
        let outcome = dispatcher.dispatch(link)
        report(outcome, url: link.requestedURL)
        return outcome
    }

    private func report(_ outcome: LinkOutcome, url: URL) {
        if let routed = outcome.routedURL { emit(.routed, url, reason: outcome.route?.pattern, target: routed) }
        if let opened = outcome.openedURL { emit(.opened, url, target: opened) }
    }

    private func shuttingDownError(_ url: URL) -> LinkError {
        LinkError(
            code: .shuttingDown,
            message: "The link manager is shutting down and took no new link (\(url.redactedString));"
                + " nothing was requested. Send the request to another instance."
        )
    }

    /// Reports an event; builds nothing when no handler is set.
    private func emit(
        _ kind: LinkEvent.Kind,
        _ url: URL,
        duration: Duration? = nil,
        errorCode: LinkError.Code? = nil,
        reason: String? = nil,
        target: URL? = nil
    ) {
        guard let handler = configuration.eventHandler else { return }
        handler(LinkEvent(kind, url: url, duration: duration, errorCode: errorCode, reason: reason, target: target))
    }

    /// The identity of a click for coalescing: scheme and host case-folded (trailing dot dropped), port, path and
    /// query exactly as received; the fragment never reaches the server, so it does not make another click.
    /// URLs with credentials never get here (the policy refuses them first).
    static func coalescingKey(_ url: URL) -> String {
        var host = (url.host(percentEncoded: true) ?? "").lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        var key = (url.scheme ?? "").lowercased() + "://" + host
        if let port = url.port { key += ":\(port)" }
        key += url.path(percentEncoded: true)
        if let query = url.query(percentEncoded: true) { key += "?" + query }
        return key
    }

    private struct Admission {
        var isOpen = true
        /// Entry points taking a link right now.
        var taking = 0
        /// Shutdowns waiting for `taking` to reach zero.
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
    }
}
