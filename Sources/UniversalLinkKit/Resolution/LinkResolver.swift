import Foundation
import Synchronization
internal import _LinkKitLocking

/// Resolves one pub-web tracking URL: one `GET` that counts the click and returns where the link goes.
///
/// The request is the tracking URL exactly as received (query byte for byte) with
/// `Accept: application/json` and the Responsys resolver `User-Agent`. Around it:
/// - the ``ResolutionPolicy`` is checked before any request and for every redirect (at most
///   ``Configuration/maxRedirects``);
/// - a deadline covers the whole resolution, retry and redirects included: one race between the resolution and
///   the injected clock, whatever the transport; at the deadline the resolution is cancelled;
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
        try await resolve(url, startedAt: startedAt, deadline: deadline, onStep: nil)
    }

    /// ``resolve(_:startedAt:deadline:)`` reporting each step to `onStep` (on the resolving task, in order).
    package func resolve(
        _ url: URL, startedAt: ContinuousClock.Instant? = nil, deadline: ContinuousClock.Instant? = nil,
        onStep: (@Sendable (ResolutionStep) -> Void)?
    ) async throws(LinkError) -> ResolvedLink {
        if let refusal = configuration.policy.check(url) { throw refusal }
        let start = startedAt ?? clock.now
        var effective = start + configuration.timeout
        if let deadline, deadline < effective { effective = deadline }
        let attempt = ResolutionAttempt(resolver: self, deadline: effective, onStep: onStep)
        do {
            guard clock.now < effective else { throw DeadlineExceeded() }
            let response = try await withDeadline(effective, clock: clock) { try await attempt.run(url) }
            return ResolvedLink(
                requestedURL: url,
                deepLinkURL: response.deepLinkURL,
                webLinkURL: response.webLinkURL,
                isPubWeb: true,
                error: response.unsafeLinkError
            )
        } catch {
            throw attempt.linkError(for: error, url, allowed: effective - start)
        }
    }

    /// The one deadline mechanism: the resolution races the clock; whichever ends first resumes the caller
    /// and cancels the other. Every transport goes through it, so tests on an injected clock take the production
    /// path. The caller waits on a continuation, not on the resolution's task: a transport that ignores
    /// cancellation cannot hold the caller past the deadline (its task is left to finish on its own).
    fileprivate func request(_ url: URL, fresh: Bool) -> TransportRequest {
        TransportRequest(
            url: url,
            headerFields: ["Accept": "application/json", "User-Agent": configuration.userAgent],
            allowsLocalAddresses: configuration.policy.allowsLocalHosts,
            allowsReusedConnection: !fresh
        )
    }

    fileprivate func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await transport.send(request, maxBodyBytes: configuration.maxBodyBytes)
    }

    fileprivate var clockNow: ContinuousClock.Instant { clock.now }

    fileprivate func sleep(until instant: ContinuousClock.Instant) async throws {
        try await clock.sleep(until: instant)
    }
}

/// One step of a resolution, for the manager's events (logs and metrics). URLs carry no credentials.
package enum ResolutionStep: Sendable, Hashable {
    /// A request went to the transport (attempt 1, or 2 for the retry; redirects count their own attempts).
    case requestSent(attempt: Int, url: URL)
    /// The transport returned an answer.
    case answered(attempt: Int, statusCode: Int, bytes: Int, duration: Duration)
    /// The request is sent again after `after`.
    case retrying(reason: String, after: Duration)
    /// The answer redirected to `to`, which the policy admitted.
    case redirected(to: URL)
    /// The transport failed.
    case requestFailed(attempt: Int, kind: TransportError.Kind)
}

/// One resolution: the redirect chain and the single retry it may spend.
private struct ResolutionAttempt: Sendable {
    let resolver: LinkResolver
    let deadline: ContinuousClock.Instant
    let onStep: (@Sendable (ResolutionStep) -> Void)?

    private var configuration: LinkResolver.Configuration { resolver.configuration }

    func run(_ requestedURL: URL) async throws -> ResolutionResponse {
        var url = requestedURL
        var redirects = 0
        var retryLeft = true
        while true {
            let response = try await fetch(url, retryLeft: &retryLeft)
            switch response.statusCode {
            case 200..<300:
                // Checked here too, so a custom transport that ignores the cap cannot hand over a huge body.
                guard response.body.count <= configuration.maxBodyBytes else {
                    throw TransportError(.bodyTooLarge, detail: "\(response.body.count) bytes")
                }
                return try ResolutionResponse.decode(response.body, requestedURL: requestedURL)
            case 301, 302, 303, 307, 308:
                // An answer without a usable Location is still an answer: reported, never requested again.
                guard let location = response.headerField("Location"), !location.isEmpty,
                      let target = URL(string: location, relativeTo: url)?.absoluteURL
                else {
                    throw status(response.statusCode, requestedURL, "a redirect without a usable Location")
                }
                redirects += 1
                if redirects > configuration.maxRedirects {
                    throw status(response.statusCode, requestedURL, "more than \(configuration.maxRedirects) redirects")
                }
                if let refusal = configuration.policy.check(target) {
                    throw LinkError(
                        code: .hostNotAllowed,
                        message: "The answer for \(requestedURL.redactedString) redirects to a URL the policy refuses. "
                            + refusal.message
                    )
                }
                onStep?(.redirected(to: target.redacted))
                url = target
            default:
                throw status(response.statusCode, requestedURL, "status \(response.statusCode)")
            }
        }
    }

    /// One request, plus the retry when it is allowed and fits before the deadline.
    private func fetch(_ url: URL, retryLeft: inout Bool) async throws -> TransportResponse {
        do {
            let response = try await send(url, attempt: 1)
            guard [502, 503, 504].contains(response.statusCode), retryLeft,
                  let delay = retryDelay(retryAfter: response.headerField("Retry-After"))
            else { return response }
            retryLeft = false
            onStep?(.retrying(reason: "status \(response.statusCode)", after: delay))
            try await resolver.sleep(until: resolver.clockNow + delay)
            return try await send(url, attempt: 2)
        } catch let error as TransportError where error.kind == .noAnswer && retryLeft {
            guard let delay = retryDelay(retryAfter: nil) else { throw error }
            retryLeft = false
            onStep?(.retrying(reason: "no answer (\(error.kind))", after: delay))
            try await resolver.sleep(until: resolver.clockNow + delay)
            return try await send(url, attempt: 2)
        }
    }

    /// One request through the transport; the retry (attempt 2) asks for a fresh connection.
    private func send(_ url: URL, attempt: Int) async throws -> TransportResponse {
        // No request may start once the deadline has passed (a retry's pause can end close to it).
        guard resolver.clockNow < deadline else { throw DeadlineExceeded() }
        let request = resolver.request(url, fresh: attempt > 1)
        guard let onStep else { return try await resolver.send(request) }
        onStep(.requestSent(attempt: attempt, url: url.redacted))
        let sent = resolver.clockNow
        do {
            let response = try await resolver.send(request)
            onStep(.answered(
                attempt: attempt, statusCode: response.statusCode, bytes: response.body.count,
                duration: resolver.clockNow - sent))
            return response
        } catch let error as TransportError {
            onStep(.requestFailed(attempt: attempt, kind: error.kind))
            throw error
        }
    }

    /// The pause before the retry, or `nil` when it does not fit before the deadline or the server asks for too long.
    private func retryDelay(retryAfter: String?) -> Duration? {
        var delay = configuration.retryDelay
        if let retryAfter {
            guard let seconds = RetryAfter.seconds(retryAfter), seconds <= configuration.maxRetryAfter.seconds else {
                return nil
            }
            delay = .milliseconds(Int64(seconds * 1000))
        }
        // Leave the retried request some time of its own, or it would only turn into a timeout.
        return resolver.clockNow + delay + .milliseconds(50) < deadline ? delay : nil
    }

    /// The one place a failure becomes a ``LinkError``.
    func linkError(for error: any Error, _ url: URL, allowed: Duration) -> LinkError {
        let shown = url.redactedString
        switch error {
        case let error as LinkError:
            return error
        case is DeadlineExceeded:
            return LinkError(
                code: .timeout,
                message: "No answer for \(shown) within \(allowed.seconds) s; retry later or open the link in a browser."
            )
        case let error as TransportError:
            switch error.kind {
            case .timedOut:
                return LinkError(
                    code: .timeout,
                    message: "The transport gave up waiting for \(shown) (\(error.description));"
                        + " retry later or open the link in a browser.",
                    underlyingError: error
                )
            case .bodyTooLarge:
                return LinkError(
                    code: .responseTooLarge,
                    message: "The answer for \(shown) is larger than \(configuration.maxBodyBytes) bytes;"
                        + " it is not a Response Handler answer. Open the link in a browser.",
                    underlyingError: error
                )
            case .addressNotAllowed:
                return LinkError(
                    code: .hostNotAllowed,
                    message: "Refused to resolve \(shown): \(error.detail); nothing was sent.",
                    underlyingError: error
                )
            case .encodedBody:
                return LinkError(
                    code: .invalidResponse,
                    message: "The answer for \(shown) came compressed though none was asked for; it was not read."
                        + " Open the link in a browser.",
                    underlyingError: error
                )
            default:
                return LinkError(
                    code: .network,
                    message: "The request for \(shown) failed (\(error.description)); retry later.",
                    underlyingError: error
                )
            }
        default:
            return LinkError(
                code: .cancelled,
                message: "The resolution of \(shown) was cancelled before it finished.",
                underlyingError: error
            )
        }
    }

    private func status(_ code: Int, _ url: URL, _ what: String) -> LinkError {
        LinkError(
            code: .httpStatus,
            message: "The server answered \(url.redactedString) with \(what); open the link in a browser instead.",
            statusCode: code
        )
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
