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
/// ``isDeliveryPaused`` is cleared; observers never run under a lock of the manager's or on the thread of a resolution.
public final class LinkManager: Sendable {
    /// A manager with the default configuration on `NotificationCenter.default`.
    public static let shared = LinkManager()

    /// The settings the manager was created with.
    package let configuration: Configuration
    /// The router resolved links are handed to, if any.
    package var router: LinkRouter? { dispatcher.router }

    // The walk of one link, in order: entry, policy and deadline (the resolver's), coalescing, the fleet step,
    // resolution, delivery. Each part is handed what it needs and calls nothing back.
    let triage: EntryTriage
    let gate = AdmissionGate()
    private let resolver: LinkResolver
    private let registry: ActivationRegistry
    private let fleet: FleetClaims?
    private let broadcaster: LinkBroadcaster
    private let dispatcher: LinkDispatcher
    private let events: EventReporter
    private let clock: LinkClock
    private let executeFlag: Mutex<Bool>
    /// The transport the manager created, which its shutdown releases.
    private let ownedTransport: (any LinkTransport)?

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - configuration: Settings.
    ///   - transport: Sends resolution requests. `nil` (the default): one of the manager's own (``CurlTransport``
    ///     on Linux, `URLSessionTransport` where libcurl cannot be loaded and on Apple platforms), released by
    ///     ``shutdown(gracePeriod:)``; a transport given here is never shut down by the manager (it may be shared).
    ///   - notificationCenter: Where notifications are posted.
    ///   - opener: Opens URLs that are not resolved (in-app hyperlinks with ``executeRsysWebURL`` off, push
    ///     URLs no route takes, resolved links no route takes when a router is set). `nil` (the default): nothing is
    ///     opened, since Linux has no browser to hand a URL to.
    ///   - router: Where resolved links go after their notification: the deep link, else the web link, else the
    ///     opener. `nil` (the default) leaves routing to the host's observer.
    ///   - clock: The clock of deadlines and the duplicate window; tests inject one whose time they control.
    public convenience init(
        configuration: Configuration = .init(),
        transport: (any LinkTransport)? = nil,
        notificationCenter: NotificationCenter = .default,
        opener: URLOpener? = nil,
        router: LinkRouter? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            configuration: configuration, transport: transport, notificationCenter: notificationCenter, opener: opener,
            router: router, clock: LinkClock(clock))
    }

    /// Creates a manager on a wrapped clock, whose scheduler a test can watch.
    init(
        configuration: Configuration = .init(),
        transport: (any LinkTransport)? = nil,
        notificationCenter: NotificationCenter = .default,
        opener: URLOpener? = nil,
        router: LinkRouter? = nil,
        clock: LinkClock
    ) {
        let events = EventReporter(handler: configuration.eventHandler)
        let owned = transport == nil ? LinkResolver.defaultTransport() : nil
        let transport = transport ?? owned!
        self.configuration = configuration
        self.clock = clock
        self.events = events
        self.ownedTransport = owned
        self.triage = EntryTriage(recognizer: PubWebLinkRecognizer(configuration: configuration.recognition))
        self.resolver = LinkResolver(
            configuration: configuration.resolution, transport: transport, clock: clock, events: events)
        self.registry = ActivationRegistry(window: configuration.duplicateWindow)
        self.fleet = configuration.claimStore.map {
            FleetClaims(
                store: $0, failure: configuration.claimStoreFailure, lease: configuration.claimLease, clock: clock,
                events: events)
        }
        self.broadcaster = LinkBroadcaster(
            center: notificationCenter, startsPaused: configuration.startsPaused, events: events)
        self.dispatcher = LinkDispatcher(router: router, opener: opener ?? .opensNothing)
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
        // The caller's limit becomes one instant here; it travels as an argument from now on.
        let limit = timeout.map { clock.now + $0 }
        let decision = triage.serverLink(url)
        if case let .refuse(error) = decision {
            events.refused(url, error)
            throw error
        }
        let handle = take(decision, limit: limit)
        guard handle.isHandled else { throw .shuttingDown(url) }
        guard let flight = handle.flight else { return handle.immediate }
        switch await flight.wait(until: limit, clock: clock) {
        case var .value(outcome):
            outcome.isDuplicate = outcome.isDuplicate || handle.isDuplicate
            return outcome
        case .deadline:
            throw .waitTimedOut(url)
        case .cancelled:
            throw .waitCancelled(url)
        }
    }

    /// Subscribes to the links the manager broadcasts from now on, as an `AsyncSequence`: the same links, in the same
    /// order, as the notifications.
    ///
    /// ```swift
    /// for await link in manager.results() {
    ///     print(link.requestedURL.redactedString, link.destinationURL?.absoluteString ?? "-")
    /// }
    /// ```
    ///
    /// - Parameter limit: How many links the subscription keeps for a consumer that falls behind; past that the
    ///   oldest are dropped. Default 1 024.
    /// - Returns: The links; the sequence ends after ``shutdown(gracePeriod:)``.
    public func results(bufferingNewest limit: Int = 1024) -> AsyncStream<ResolvedLink> {
        broadcaster.subscribe(bufferingNewest: limit)
    }

    /// Stops taking links, lets the resolutions in flight finish within `gracePeriod`, cancels the rest, and
    /// returns once every handled link's notification has been delivered.
    ///
    /// Links handed in after the call starts are refused at once (``resolve(_:timeout:)`` throws
    /// ``LinkError/Code/shuttingDown``; the PushIOManager-shaped entry points return not handled). Resolutions still
    /// in flight when the grace period ends are finished at once with ``LinkError/Code/cancelled`` (and notified),
    /// whatever their transport does. Notifications held by ``isDeliveryPaused`` are delivered. The
    /// ``results(bufferingNewest:)`` sequences end. The transport the manager created itself is released (one given
    /// to ``init(configuration:transport:notificationCenter:opener:router:clock:)`` is left to its owner). Calling it
    /// again waits for the same things.
    ///
    /// Cancelling the task that runs the shutdown ends the grace period at once.
    ///
    /// - Parameter gracePeriod: How long in-flight resolutions may take before they are cancelled. Default 10 s.
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        await gate.close()
        let graceEnds = clock.now + gracePeriod
        for flight in registry.inFlight {
            if Task.isCancelled { break }
            if case .value = await flight.wait(until: graceEnds, clock: clock) { continue }
            break
        }
        // A cancelled resolution ends at once, as `cancelled`, whatever its transport or claim store does.
        let remaining = registry.inFlight
        for flight in remaining { flight.cancel() }
        for flight in remaining { _ = await flight.value }
        broadcaster.resumeDelivery()
        await broadcaster.flush()
        broadcaster.finishSubscriptions()
        ownedTransport?.shutdown()
    }

    /// Whether the manager takes new links (`false` once ``shutdown(gracePeriod:)`` began).
    public var isAcceptingLinks: Bool { gate.isOpen }

    /// Waits until no resolution is in flight and every notification posted so far has been delivered (held ones
    /// only once delivery resumes): after it, what the links did (notifications, routes, opener calls) has happened.
    public func waitUntilIdle() async {
        // An observer, route or opener may hand in another link while the last ones are delivered: go round until
        // a delivery round started nothing new.
        while true {
            while case let flights = registry.inFlight, !flights.isEmpty {
                for flight in flights { _ = await flight.value }
            }
            await broadcaster.flush()
            if registry.inFlight.isEmpty, broadcaster.undeliveredCount == 0 { return }
        }
    }

    // MARK: Delivery control

    /// Whether notifications are held. Set it to hold them from now on, in order (on cold start: right after
    /// creating the manager, before handing it the launch activity); clear it to deliver the held ones in order and
    /// post new ones as they come. Thread-safe.
    public var isDeliveryPaused: Bool {
        get { broadcaster.isPaused }
        set { newValue ? broadcaster.pauseDelivery() : broadcaster.resumeDelivery() }
    }

    /// The number of clicks the manager remembers (in flight or within the duplicate window).
    var rememberedClickCount: Int { registry.count }

    // MARK: Composition

    /// Carries out a triage decision as one admission of the gate.
    ///
    /// - Parameters:
    ///   - decision: What to do.
    ///   - limit: The caller's own deadline, if any (server calls).
    ///   - url: The URL handed in, for a handle that is not handled.
    func take(_ decision: EntryTriage.Decision, limit: ContinuousClock.Instant?, url: URL? = nil) -> LinkHandle {
        let shown: URL
        switch decision {
        case .ignore, .refuse:
            return LinkHandle(url: url, isHandled: false)
        case let .resolve(link), let .open(link), let .dispatch(link), let .route(link):
            shown = link
        case let .notify(link):
            shown = link.requestedURL
        }
        let handle = gate.pass { () -> LinkHandle in
            switch decision {
            case let .resolve(link): claim(link, limit: limit)
            case let .notify(link): LinkHandle(url: link.requestedURL, isHandled: true, outcome: deliver(link))
            case let .open(link): reported(dispatcher.open(link), url: link)
            case let .dispatch(link): reported(dispatcher.dispatch(link), url: link)
            case let .route(link): routed(link)
            case .ignore, .refuse: LinkHandle(url: url, isHandled: false)
            }
        }
        if let handle { return handle }
        events.emit(.refused, shown, errorCode: .shuttingDown)
        return LinkHandle(url: shown, isHandled: false)
    }

    /// Takes a pub-web link: the resolver's policy refuses it before any claim, else it is claimed, and resolved
    /// when the claim started a flight.
    private func claim(_ url: URL, limit: ContinuousClock.Instant?) -> LinkHandle {
        events.emit(.received, url)
        let resolution: LinkResolver.Resolution
        switch resolver.prepare(url, limit: limit) {
        case let .failure(refusal):
            // Before the claim: a refused URL (one with credentials, say) must never claim or join the flight of
            // the clean URL it would otherwise share an identity with.
            events.refused(url, refusal)
            let outcome = deliver(ResolvedLink(requestedURL: url, isPubWeb: true, error: refusal))
            return LinkHandle(url: url, isHandled: true, outcome: outcome)
        case let .success(prepared):
            resolution = prepared
        }
        switch registry.claim(resolution, now: clock.now) {
        case let .joined(flight):
            events.emit(.coalesced, url)
            return LinkHandle(url: url, flight: flight, isDuplicate: true)
        case let .started(flight):
            flight.attach(start(flight))
            return LinkHandle(url: url, flight: flight, isDuplicate: false)
        }
    }

    /// Starts the one task of a flight: the resolver's, or with a claim store the fleet step's, which resolves
    /// through the resolver when it must. The task outlives a caller who gives up (its other callers and its
    /// notification still need it), and the PushIOManager-shaped entry points have no caller task to run it on.
    private func start(_ flight: Flight) -> Task<Void, Never> {
        let resolution = flight.resolution
        guard let fleet else {
            return resolver.resolve(resolution) { [self] link in finish(flight, with: FleetClaims.Result(link: link)) }
        }
        return Task(priority: .userInitiated) { [self] in
            let result = await fleet.resolve(resolution) { await resolver.resolve(resolution) }
            finish(flight, with: result)
            // After the callers here have their answer: they never wait on the store's publish.
            if let ticket = result.ticket { fleet.settle(result.link, of: resolution.identity, ticket: ticket) }
        }
    }

    /// Ends a flight: reports it, delivers its link, completes its claim and hands the outcome to its callers.
    private func finish(_ flight: Flight, with result: FleetClaims.Result) {
        events.finished(result.link, duration: clock.now - flight.startedAt)
        let wakes = broadcaster.queue(result.link)
        var outcome = dispatch(result.link)
        outcome.isDuplicate = result.isDuplicate
        registry.complete(flight.resolution.identity, now: clock.now, remember: result.isRemembered)
        flight.complete(outcome)
        // After the callers are resumed: none of them waits for the delivery thread's wake-up.
        if wakes { broadcaster.wake() }
    }

    /// Posts the link's one notification, then hands it to the dispatcher.
    private func deliver(_ link: ResolvedLink) -> LinkOutcome {
        broadcaster.post(link)
        return dispatch(link)
    }

    /// Hands a link whose notification is queued to the dispatcher.
    private func dispatch(_ link: ResolvedLink) -> LinkOutcome {
        let outcome = dispatcher.dispatch(link)
        events.report(outcome, url: link.requestedURL)
        return outcome
    }

    private func reported(_ outcome: LinkOutcome, url: URL) -> LinkHandle {
        events.report(outcome, url: url)
        return LinkHandle(url: url, isHandled: true, outcome: outcome)
    }

    /// `openURL` on a URL that is not an app link: the router only.
    private func routed(_ url: URL) -> LinkHandle {
        guard let route = router?.routeReturningMatch(url) else { return LinkHandle(url: url, isHandled: false) }
        events.emit(.routed, url, reason: route.pattern, target: url)
        return LinkHandle(url: url, isHandled: true, outcome: LinkOutcome(routedURL: url, route: route))
    }
}
