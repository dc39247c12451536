import Foundation

/// Resolves one pub-web tracking URL: one `GET` that counts the click and returns where the link goes.
///
/// The request is the tracking URL exactly as received (query byte for byte) with
/// `Accept: application/json` and the Responsys resolver `User-Agent`. Around it:
/// - the ``ResolutionPolicy`` is checked before any request and for every redirect (at most
///   ``Configuration/maxRedirects``);
/// - a deadline covers the whole resolution, retry and redirects included: one race between the resolution and
///   the injected clock, whatever the transport; at the deadline the resolution is cancelled. A transport that
///   keeps the deadline itself (``CurlTransport``, with the deadline on ``LinkClock/continuous``) runs on the
///   caller's task instead, with no task or timer of the resolver's;
/// - one retry, only when no status line arrived or on 502/503/504, honouring a `Retry-After` that fits in the
///   time left; an answer (a redirect without a usable `Location` included) is never requested again, and the
///   retry asks the transport for a fresh connection, so that with ``CurlTransport`` a link reaches the server
///   at most twice;
/// - the body is capped while it is received, decoded strictly, and unsafe links are dropped;
/// - no message carries the user name or password of a URL.
///
/// The resolver does not coalesce: every call is a request, and a click counted. It is the one public way to
/// resolve a link that does not; use it only when you count clicks yourself. ``LinkManager`` (its
/// ``LinkManager/resolve(_:timeout:)`` and every PushIOManager-shaped entry point) coalesces repeats of one click.
///
/// ```swift
/// let resolver = LinkResolver()
/// let link = try await resolver.resolve(URL(string: "https://news.example.com/pub/acc?_ri_=X")!)
/// ```
public struct LinkResolver: Sendable {
    /// Resolution settings.
    public struct Configuration: Sendable, Hashable {
        /// The deadline for the whole resolution, retry and redirects included. Default 10 s.
        public var timeout: Duration
        /// The largest body accepted. Default 64 KiB.
        public var maxBodyBytes: Int
        /// Redirects followed at most; one more is an `httpStatus` error. Default 3.
        public var maxRedirects: Int
        /// The pause before the retry when the server sent no `Retry-After`. Default 200 ms.
        public var retryDelay: Duration
        /// The longest `Retry-After` honoured; a longer one means no retry. Default 5 s.
        public var maxRetryAfter: Duration
        /// Which URLs may be requested.
        public var policy: ResolutionPolicy
        /// The `User-Agent` sent. Default `ResponsysPubWebResolver (CPU iPhone OS like Mac OS X)`, which the
        /// Response Handler recognises.
        public var userAgent: String

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - timeout: Deadline of a whole resolution.
        ///   - maxBodyBytes: Body cap.
        ///   - maxRedirects: Redirects followed at most.
        ///   - retryDelay: Pause before a retry without `Retry-After`.
        ///   - maxRetryAfter: Longest `Retry-After` honoured.
        ///   - policy: Which URLs may be requested.
        ///   - userAgent: The `User-Agent` header.
        public init(
            timeout: Duration = .seconds(10),
            maxBodyBytes: Int = 64 * 1024,
            maxRedirects: Int = 3,
            retryDelay: Duration = .milliseconds(200),
            maxRetryAfter: Duration = .seconds(5),
            policy: ResolutionPolicy = .init(),
            userAgent: String = "ResponsysPubWebResolver (CPU iPhone OS like Mac OS X)"
        ) {
            self.timeout = timeout
            self.maxBodyBytes = maxBodyBytes
            self.maxRedirects = maxRedirects
            self.retryDelay = retryDelay
            self.maxRetryAfter = maxRetryAfter
            self.policy = policy
            self.userAgent = userAgent
        }
    }

    /// The settings.
    public let configuration: Configuration
    private let transport: any LinkTransport
    private let clock: LinkClock
    /// Every request's header fields, built once from the configuration.
    private let headerFields: HeaderFields

    /// Creates a resolver.
    ///
    /// - Parameters:
    ///   - configuration: Settings.
    ///   - transport: Sends the requests; share one transport between resolvers. Default:
    ///     ``defaultTransport()``.
    ///   - clock: The clock of the deadline and of the pause before a retry.
    public init(
        configuration: Configuration = .init(), transport: any LinkTransport = LinkResolver.defaultTransport(),
        clock: LinkClock = .continuous
    ) {
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
        headerFields = ["Accept": "application/json", "User-Agent": configuration.userAgent]
        keepsDeadlineItself = clock.isSystem && transport is any DeadlineKeepingTransport
    }

    /// The platform's production transport: ``CurlTransport`` on Linux, or ``URLSessionTransport`` where
    /// libcurl cannot be loaded and on Apple platforms.
    ///
    /// - Returns: A new transport; share it between resolvers.
    public static func defaultTransport() -> any LinkTransport {
        #if os(Linux)
        if let curl = CurlTransport.make() { return curl }
        #endif
        return URLSessionTransport()
    }

    /// Resolves a pub-web tracking URL.
    ///
    /// - Parameters:
    ///   - url: The tracking URL, as received.
    ///   - startedAt: When the activation happened; ``Configuration/timeout`` counts from there. Default: now.
    ///   - deadline: A deadline of the caller's; the earlier of it and `startedAt + timeout` applies.
    /// - Returns: The resolved link; its ``ResolvedLink/error`` is set when one of two links was dropped as unsafe.
    /// - Throws: ``LinkError`` with `hostNotAllowed` (no request made), `timeout`, `network`, `httpStatus`,
    ///   `invalidResponse`, `responseTooLarge`, `unsafeLink`, `missingDestination` or `cancelled`.
    public func resolve(
        _ url: URL, startedAt: ContinuousClock.Instant? = nil, deadline: ContinuousClock.Instant? = nil
    ) async throws(LinkError) -> ResolvedLink {
        if let refusal = configuration.policy.check(url) { throw refusal }
        let deadline = Deadline(start: startedAt ?? clock.now, timeout: configuration.timeout, limit: deadline)
        let attempt = attempt(deadline, onStep: nil)
        do {
            guard clock.now < deadline.instant else { throw DeadlineExceeded() }
            guard keepsDeadlineItself else {
                // Called on its own, the resolver answers at the deadline even over a transport that ignores
                // cancellation: the requests run in a task of their own (see `withDeadline`).
                return Self.link(url, try await withDeadline(deadline.instant, clock: clock) { try await attempt.run(url) })
            }
            do {
                return Self.link(url, try await attempt.run(url))
            } catch let error as TransportError where error.kind == .timedOut && clock.now >= deadline.instant {
                // The transport kept the deadline: the same answer as the deadline's own.
                throw DeadlineExceeded()
            }
        } catch {
            throw .resolution(error, url: url, allowed: deadline.allowed, maxBodyBytes: configuration.maxBodyBytes)
        }
    }

    /// Resolves `url` on the calling task, until `deadline`: the manager's path, where the flight's deadline entry
    /// answers the link's callers at the deadline and cancels this task (so no task of its own is needed here).
    ///
    /// The policy has checked `url` already.
    ///
    /// - Parameters:
    ///   - url: The tracking URL, as received.
    ///   - deadline: The resolution's deadline, computed where the link entered.
    ///   - onStep: Told each step, in order, on this task; `nil` builds no step.
    /// - Throws: As ``resolve(_:startedAt:deadline:)``.
    package func resolve(
        _ url: URL, until deadline: Deadline, onStep: (@Sendable (ResolutionStep) -> Void)?
    ) async throws(LinkError) -> ResolvedLink {
        do {
            guard clock.now < deadline.instant else { throw DeadlineExceeded() }
            return Self.link(url, try await attempt(deadline, onStep: onStep).run(url))
        } catch {
            throw .resolution(error, url: url, allowed: deadline.allowed, maxBodyBytes: configuration.maxBodyBytes)
        }
    }

    /// Whether the transport keeps the deadline itself, on the clock the deadline is on: then the requests run on
    /// the caller's task, with no task, waiter or timer of the resolver's (each pause before a retry is bounded by
    /// the deadline already). Decided once: the dynamic cast cost about 600 instructions a resolution.
    private let keepsDeadlineItself: Bool

    /// The clock the resolver's deadlines are on.
    package var deadlineClock: LinkClock { clock }

    private func attempt(_ deadline: Deadline, onStep: (@Sendable (ResolutionStep) -> Void)?) -> ResolutionAttempt {
        ResolutionAttempt(
            configuration: configuration, headerFields: headerFields, transport: transport, clock: clock,
            deadline: deadline, onStep: onStep)
    }

    private static func link(_ url: URL, _ response: ResolutionResponse) -> ResolvedLink {
        ResolvedLink(
            requestedURL: url,
            deepLink: response.deepLink,
            webLink: response.webLink,
            isPubWeb: true,
            error: response.unsafeLinkError
        )
    }
}
