import Foundation

/// Resolves one pub-web tracking URL: one `GET` that counts the click and returns where the link goes. The one
/// owner of the policy, the deadline, the retry and the redirects, and of the errors they produce.
///
/// It works in two steps, so that the policy refuses a link before it can take or join a claim:
/// ``prepare(_:startedAt:limit:)`` turns a URL into a ``Resolution`` (the link the policy admitted, its click identity
/// and its deadline) or a refusal; coalescing claims that value, and the one activation that starts a flight hands it
/// to ``resolve(_:finish:)``, the single entry point that sends requests (``resolve(_:)`` awaits it). Nothing else in
/// the package checks the policy or words a resolution's error.
///
/// The request is the tracking URL exactly as received (query byte for byte) with `Accept: application/json` and
/// the Responsys resolver `User-Agent`. Around it:
/// - the ``ResolutionPolicy`` is checked for the link and for every redirect (at most
///   ``LinkManager/Configuration/Resolution/maxRedirects``);
/// - the deadline covers the whole resolution, retry and redirects included; the link is finished by it whatever the
///   transport does (the requests run on a task of their own, raced against the deadline:
///   ``startWithDeadline(_:clock:priority:_:end:)``), and the transport is told it too, so it sends nothing after it;
/// - one retry, only when no status line arrived or on 502/503/504, honouring a `Retry-After` that fits in the
///   time left; an answer (a redirect without a usable `Location` included) is never requested again, and the
///   retry asks for a fresh connection, so that a link reaches the server at most twice;
/// - the body is capped while it is received (and checked again here), decoded strictly, and unsafe links dropped.
package struct LinkResolver: Sendable {
    /// A link the policy admitted, ready to resolve: what coalescing claims and a flight runs.
    package struct Resolution: Sendable {
        /// The tracking URL, as received.
        package let url: URL
        /// The click it counts.
        package let identity: ClickIdentity
        /// When the resolution ends at the latest.
        package let deadline: Deadline
    }

    let configuration: LinkManager.Configuration.Resolution
    let transport: any LinkTransport
    let clock: LinkClock
    let events: EventReporter
    /// The header fields of every request: the JSON `Accept` and the configured `User-Agent`.
    let headerFields: [String: String]

    package init(
        configuration: LinkManager.Configuration.Resolution, transport: any LinkTransport, clock: LinkClock,
        events: EventReporter = EventReporter(handler: nil)
    ) {
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
        self.events = events
        self.headerFields = ["Accept": "application/json", "User-Agent": configuration.userAgent]
    }

    /// The platform's production transport: ``CurlTransport`` on Linux, or ``URLSessionTransport`` where
    /// libcurl cannot be loaded and on Apple platforms.
    package static func defaultTransport() -> any LinkTransport {
        #if os(Linux)
        if let curl = CurlTransport.make() { return curl }
        #endif
        return URLSessionTransport()
    }

    /// Checks `url` against the policy and fixes its deadline.
    ///
    /// - Parameters:
    ///   - url: The tracking URL, as received.
    ///   - startedAt: When the activation happened; the configured timeout counts from there. Default: now.
    ///   - limit: A deadline of the caller's; the earlier of it and `startedAt + timeout` applies.
    /// - Returns: The resolution to claim and run, or the policy's ``LinkError/Code/hostNotAllowed`` refusal.
    package func prepare(
        _ url: URL, startedAt: ContinuousClock.Instant? = nil, limit: ContinuousClock.Instant? = nil
    ) -> Result<Resolution, LinkError> {
        if let refusal = configuration.policy.check(url) { return .failure(refusal) }
        let deadline = Deadline(start: startedAt ?? clock.now, timeout: configuration.timeout, limit: limit)
        return .success(Resolution(url: url, identity: ClickIdentity(url), deadline: deadline))
    }

    /// Resolves a prepared link on a task of its own: requests, redirects, the retry and the answer, by its deadline.
    ///
    /// `finish` gets the resolved link exactly once: on the resolution's task when it ends in time, else at the
    /// deadline (or at once when the task is cancelled) on a task of its own. Its ``ResolvedLink/error`` says why it
    /// failed (`timeout`, `network`, `httpStatus`, `invalidResponse`, `responseTooLarge`, `unsafeLink`,
    /// `missingDestination`, `hostNotAllowed` for a redirect or an address the policy refuses, `cancelled` when the
    /// task was cancelled), or that one of two links was dropped as unsafe.
    ///
    /// - Parameters:
    ///   - resolution: What ``prepare(_:startedAt:limit:)`` gave.
    ///   - finish: Takes the resolved link.
    /// - Returns: The resolution's task; cancelling it finishes the link at once as `cancelled`.
    @discardableResult
    package func resolve(
        _ resolution: Resolution, finish: @escaping @Sendable (ResolvedLink) -> Void
    ) -> Task<Void, Never> {
        let attempt = ResolutionAttempt(
            configuration: configuration, headerFields: headerFields, transport: transport, clock: clock,
            deadline: resolution.deadline, events: events)
        // A tapped link is user-initiated work: it must not queue behind the host's background jobs.
        return startWithDeadline(resolution.deadline.instant, clock: clock, priority: .userInitiated) {
            try await attempt.run(resolution.url)
        } end: { [self] end in
            finish(link(resolution, end))
        }
    }

    /// Resolves a prepared link and returns it: ``resolve(_:finish:)``, awaited. A cancelled caller gets the link at
    /// once, as `cancelled`.
    ///
    /// - Parameter resolution: What ``prepare(_:startedAt:limit:)`` gave.
    /// - Returns: The resolved link.
    package func resolve(_ resolution: Resolution) async -> ResolvedLink {
        let waiter = Waiter<ResolvedLink>()
        let task = resolve(resolution) { waiter.resume(returning: $0) }
        return await withTaskCancellationHandler { await waiter.value } onCancel: { task.cancel() }
    }

    /// The resolved link of a resolution that ended as `end`.
    private func link(
        _ resolution: Resolution, _ end: Waiter<Result<ResolutionAnswer, any Error>>.End
    ) -> ResolvedLink {
        let (url, deadline) = (resolution.url, resolution.deadline)
        let failure: any Error
        switch end {
        case let .value(.success(answer)):
            return ResolvedLink(
                requestedURL: url, deepLinkURL: answer.deepLinkURL, webLinkURL: answer.webLinkURL, isPubWeb: true,
                error: answer.unsafeLinkError)
        case let .value(.failure(error as TransportError))
        where error.kind == .timedOut && clock.now >= deadline.instant:
            // The transport kept the deadline: the same answer as the deadline's own.
            failure = DeadlineExceeded()
        case let .value(.failure(error)):
            failure = error
        case .deadline:
            failure = DeadlineExceeded()
        case .cancelled:
            failure = CancellationError()
        }
        let error = LinkError.resolution(
            failure, url: url, allowed: deadline.allowed, maxBodyBytes: configuration.maxBodyBytes)
        return ResolvedLink(requestedURL: url, isPubWeb: true, error: error)
    }
}
