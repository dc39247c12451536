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

    let triage: EntryTriage
    let gate = AdmissionGate()
    private let registry: ActivationRegistry
    let broadcaster: LinkBroadcaster
    private let dispatcher: LinkDispatcher
    private let events: EventReporter
    private let clock: LinkClock
    private let executeFlag: Mutex<Bool>
    /// The transport the manager created, which its shutdown releases.
    private let ownedTransport: (any LinkTransport)?
    /// The fleet step, when a ``Configuration/claimStore`` is set.
    private let shared: SharedClaims?

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
        self.triage = EntryTriage(recognizer: recognizer)
        self.ownedTransport = ownsTransport ? transport : nil
        self.resolver = LinkResolver(configuration: configuration.resolution, transport: transport, clock: clock)
        self.broadcaster = LinkBroadcaster(
            center: notificationCenter, startsPaused: configuration.startsPaused, events: configuration.eventHandler)
        self.registry = ActivationRegistry(window: configuration.duplicateWindow)
        self.dispatcher = LinkDispatcher(router: router, opener: opener)
        let events = EventReporter(handler: configuration.eventHandler)
        self.events = events
        self.clock = clock
        self.executeFlag = Mutex(configuration.executeRsysWebURL)
        self.shared = configuration.claimStore.map {
            SharedClaims(
                store: $0, failure: configuration.claimStoreFailure, lease: configuration.claimLease, clock: clock,
                events: events)
        }
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
        let handle: LinkHandle
        switch triage.serverLink(url) {
        case let .refuse(error):
            events.refused(url, error)
            throw error
        case let decision:
            handle = take(decision, limit: limit, startsInline: true)
        }
        guard handle.isHandled else { throw .shuttingDown(url) }
        guard let pending = handle.pending else { return await handle.outcome }
        switch await pending.wait(until: limit, clock: clock) {
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
    /// ``LinkError/Code/shuttingDown``; the PushIOManager-shaped entry points return not handled). Resolutions still
    /// in flight when the grace period ends are finished at once with ``LinkError/Code/cancelled`` (and notified),
    /// whatever their transport does. Notifications held by ``pauseDelivery()`` are delivered. The
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
            // A cancelled shutdown ends the grace period at once.
            if Task.isCancelled { break }
            if case .value = await flight.pending.wait(until: graceEnds, clock: clock) { continue }
            break
        }
        for flight in registry.inFlight {
            flight.cancel(byShutdown: true)
            finish(flight, with: ResolvedLink(requestedURL: flight.url, isPubWeb: true, error: .cancelledByShutdown(flight.url)))
        }
        broadcaster.resumeDelivery()
        await broadcaster.flush()
        broadcaster.finishSubscriptions()
        ownedTransport?.shutdown()
    }

    /// The number of remembered or in-flight clicks whose flight still keeps its task's handle, for tests.
    var flightsHoldingTasks: Int { registry.flightsHoldingTasks }

    /// Whether the manager takes new links (`false` once ``shutdown(gracePeriod:)`` began).
    public var isAcceptingLinks: Bool { gate.isOpen }

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
            if registry.inFlightCount == 0, broadcaster.undeliveredCount == 0 { return }
        }
    }

    // MARK: Composition

    /// Carries out a triage decision as one admission of the gate.
    ///
    /// - Parameters:
    ///   - decision: What to do.
    ///   - limit: The caller's own deadline, if any (server calls).
    ///   - url: The URL handed in, for a handle that is not handled.
    ///   - startsInline: The caller awaits the outcome (``resolve(_:timeout:)``): a resolution it starts runs on the
    ///     calling thread until its first suspension (see `start`).
    func take(
        _ decision: EntryTriage.Decision, limit: ContinuousClock.Instant?, url: URL? = nil, startsInline: Bool = false
    ) -> LinkHandle {
        let shown: URL?
        switch decision {
        case .ignore, .refuse:
            return LinkHandle(url: url, isHandled: false, outcome: LinkOutcome())
        case let .resolve(link, _), let .open(link), let .dispatch(link), let .route(link):
            shown = link
        case let .notify(link):
            shown = link.requestedURL
        }
        let handle = gate.pass { () -> LinkHandle in
            switch decision {
            case let .resolve(link, plain): claim(link, plain: plain, limit: limit, startsInline: startsInline)
            case let .notify(link): LinkHandle(url: link.requestedURL, isHandled: true, outcome: deliver(link))
            case let .open(link): reported(dispatcher.open(link), url: link)
            case let .dispatch(link): reported(dispatcher.dispatch(link), url: link)
            case let .route(link): routed(link)
            case .ignore, .refuse: LinkHandle(url: url, isHandled: false, outcome: LinkOutcome())
            }
        }
        if let handle { return handle }
        if let shown { events.emit(.refused, shown, errorCode: .shuttingDown) }
        return LinkHandle(url: shown ?? url, isHandled: false, outcome: LinkOutcome())
    }

    /// Takes a pub-web link: refused without a claim when the policy says so, else claimed, and resolved when the
    /// claim started a flight. `plain`: the link's text as the triage read it, read once for the recognizer, the
    /// policy and the identity.
    private func claim(
        _ url: URL, plain: PlainLinkText?, limit: ContinuousClock.Instant?, startsInline: Bool
    ) -> LinkHandle {
        events.emit(.received, url)
        if let refusal = configuration.resolution.policy.check(url, plain: plain) {
            // Before the claim: a refused URL (one with credentials, say) must never claim or join the flight of the
            // clean URL it would otherwise share an identity with.
            events.refused(url, refusal)
            return LinkHandle(url: url, isHandled: true, outcome: deliver(ResolvedLink(requestedURL: url, isPubWeb: true, error: refusal)))
        }
        let now = clock.now
        let deadline = Deadline(start: now, timeout: configuration.resolution.timeout, limit: limit)
        switch registry.claim(ClickIdentity(url, plain: plain), url: url, now: now, deadline: deadline.instant) {
        case let .joined(flight):
            events.emit(.coalesced, url)
            return LinkHandle(url: url, isHandled: true, isDuplicate: true, pending: flight.pending)
        case let .started(flight):
            start(flight, deadline: deadline, inline: startsInline)
            return LinkHandle(url: url, isHandled: true, isDuplicate: false, pending: flight.pending)
        }
    }

    /// Starts a flight's resolution: its one task, and its deadline entry on the clock's scheduler.
    ///
    /// `inline`: the caller is about to await the outcome, so the task starts on the calling thread and runs until
    /// its first suspension (the transport's request) instead of waiting for a thread of the pool: no thread is woken
    /// to start it, and a resolution that needs no suspension (a transport that answers at once) is finished before
    /// this returns, with no deadline entry. Only ``resolve(_:timeout:)`` asks for it: the PushIOManager-shaped
    /// entry points return at once and may be called from host code that a router or opener called, where running
    /// a resolution on the stack could recurse.
    private func start(_ flight: Flight, deadline: Deadline, inline: Bool) {
        // The one task of a resolution. It must exist: the resolution outlives a caller who gives up (its other
        // callers and its notification still need it), and the PushIOManager-shaped entry points have no caller
        // task to run it on. A tapped link is user-initiated work: it must not queue behind the host's background
        // jobs.
        let resolution: @Sendable () async -> Void = { [self] in
            if let shared {
                await resolveShared(flight, deadline, through: shared)
            } else {
                await resolveAlone(flight, deadline)
            }
        }
        let task = inline ? Task.immediate(priority: .userInitiated, operation: resolution)
            : Task(priority: .userInitiated, operation: resolution)
        // Finished while it started (inline, over a transport that answers at once): nothing left to bound.
        if inline, flight.isFinished { return }
        // At the deadline the callers get their answer even when the transport ignores the task's cancellation.
        // The action runs on the clock's one scheduler task, which must never wait for host code (observers,
        // routes, the opener): the finish gets a task of its own, only for a resolution that timed out.
        let ticket = clock.scheduler.schedule(at: deadline.instant) { [self] in
            // A flight that finished as its deadline came costs no task.
            guard !flight.isFinished else { return }
            Task(priority: .userInitiated) {
                let timeout = LinkError.resolution(
                    DeadlineExceeded(), url: flight.url, allowed: deadline.allowed,
                    maxBodyBytes: configuration.resolution.maxBodyBytes)
                // A flight waiting on another process's outcome sent nothing: a retry may ask the store again.
                finish(
                    flight, with: ResolvedLink(requestedURL: flight.url, isPubWeb: true, error: timeout),
                    remember: flight.resolvesHere)
                // After the finish: cancelled first, the resolving task would report `cancelled` instead.
                flight.cancel()
            }
        }
        // A resolution that finished before this line (a transport that answers at once) found no entry to
        // disarm: without this, the entry and its flight were held until the deadline, and then ran for nothing.
        if !flight.attach(task, deadline: ticket) { clock.scheduler.cancel(ticket) }
    }

    /// The body of a flight's task without a claim store.
    ///
    /// Once the resolution returned there is nothing left to cancel: the flight lets go of this task before its
    /// callers are answered (a finished flight is remembered for the duplicate window, and a task kept by its handle
    /// holds its whole allocation, over a kilobyte, until then).
    ///
    /// A function of its own, not inlined into the task's closure (nor is `finish`): every async frame of the task
    /// is allocated per link, from slabs of under 1 KB, and a frame that does not fit costs a `malloc`. With both
    /// paths and the finish inlined, the closure's frame was 2.7 KB; now it is 320 bytes, and this one's under 200.
    @inline(never)
    private func resolveAlone(_ flight: Flight, _ deadline: Deadline) async {
        let link = await resolveHere(flight, deadline)
        flight.taskEnded()
        finish(flight, with: link)
    }

    /// The body of a flight's task with a claim store: the fleet step decides whether this process sends the request.
    @inline(never)
    private func resolveShared(_ flight: Flight, _ deadline: Deadline, through shared: SharedClaims) async {
        let result = await shared.resolve(flight, deadline: deadline) { await resolveHere(flight, deadline) }
        flight.taskEnded()
        finish(flight, with: result.link, isDuplicate: result.isDuplicate, remember: result.isRemembered)
        // After the callers here have their answer: they never wait on the store's publish.
        if let ticket = result.ticket { shared.settle(result.link, flight: flight, ticket: ticket, deadline: deadline) }
    }

    /// Resolves the flight's link in this process: the request goes out from here.
    private func resolveHere(_ flight: Flight, _ deadline: Deadline) async -> ResolvedLink {
        do throws(LinkError) {
            return try await resolver.resolve(flight.url, until: deadline, onStep: events.steps(of: flight.url))
        } catch {
            return ResolvedLink(requestedURL: flight.url, isPubWeb: true, error: error)
        }
    }

    /// Ends a flight once: reports it, delivers its link, releases its claim and hands the outcome to its callers.
    /// `isDuplicate`: another process of the fleet resolved the click; `remember`: later activations within the
    /// window are answered with it (see `SharedClaims.Result`). Not inlined: see `resolveAlone`.
    @inline(never)
    private func finish(_ flight: Flight, with link: ResolvedLink, isDuplicate: Bool = false, remember: Bool = true) {
        let (won, ticket) = flight.finish()
        guard won else { return }
        if let ticket { clock.scheduler.cancel(ticket) }
        events.finished(link, duration: clock.now - flight.startedAt)
        var outcome = deliver(link)
        outcome.isDuplicate = isDuplicate
        registry.complete(flight.identity, now: clock.now, remember: remember)
        flight.pending.complete(outcome)
    }

    /// Posts the link's one notification, then hands it to the dispatcher.
    private func deliver(_ link: ResolvedLink) -> LinkOutcome {
        broadcaster.post(link)
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
        guard let route = router?.routeReturningMatch(url) else {
            return LinkHandle(url: url, isHandled: false, outcome: LinkOutcome())
        }
        events.emit(.routed, url, reason: route.pattern, target: url)
        return LinkHandle(url: url, isHandled: true, outcome: LinkOutcome(routedURL: url, route: route))
    }
}
