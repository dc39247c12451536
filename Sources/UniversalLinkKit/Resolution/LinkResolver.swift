import Foundation

/// Resolves one pub-web tracking URL: one `GET` that counts the click and returns where the link goes.
///
/// The request is the tracking URL exactly as received (query byte for byte) with
/// `Accept: application/json` and the Responsys resolver `User-Agent`. Around it:
/// - the ``ResolutionPolicy`` is checked before any request and for every redirect (at most
///   ``Configuration/maxRedirects``);
/// - a deadline covers the whole resolution, retry included;
/// - one retry, only when no answer arrived or on 502/503/504, honouring a `Retry-After` that fits in the time
///   left (a retried request that had reached the server could count the click twice);
/// - the body is capped while it is received, decoded strictly, and unsafe links are dropped.
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
    fileprivate let clock: LinkClock

    /// Creates a resolver.
    ///
    /// - Parameters:
    ///   - configuration: Settings.
    ///   - transport: Sends the requests; share one ``URLSessionTransport`` between resolvers.
    ///   - clock: The clock of the deadline.
    public init(configuration: Configuration = .init(), transport: any LinkTransport = URLSessionTransport(), clock: LinkClock = .continuous) {
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
    }

    /// Resolves a pub-web tracking URL.
    ///
    /// - Parameters:
    ///   - url: The tracking URL, as received.
    ///   - startedAt: When the activation happened; the deadline counts from there. Default: now.
    /// - Returns: The resolved link; its ``ResolvedLink/error`` is set when one of two links was dropped as unsafe.
    /// - Throws: ``LinkError`` with `hostNotAllowed` (no request made), `timeout`, `network`, `httpStatus`,
    ///   `invalidResponse`, `responseTooLarge`, `unsafeLink`, `missingDestination` or `cancelled`.
    public func resolve(_ url: URL, startedAt: ContinuousClock.Instant? = nil) async throws(LinkError) -> ResolvedLink {
        if let refusal = configuration.policy.check(url) { throw refusal }
        let deadline = (startedAt ?? clock.now) + configuration.timeout
        do {
            guard clock.now < deadline else { throw DeadlineExceeded() }
            let response: ResolutionResponse
            if let transport = transport as? any DeadlineEnforcingTransport {
                // Every request bounds itself by the deadline and every pause ends before it, so the caller
                // awaits the resolution directly: no task, timer or continuation of the resolver's own.
                let attempt = ResolutionAttempt(resolver: self, deadline: deadline, enforcing: transport)
                response = try await attempt.run(url)
            } else {
                let attempt = ResolutionAttempt(resolver: self, deadline: deadline, enforcing: nil)
                response = try await withDeadline(deadline, clock: clock) {
                    try await attempt.run(url)
                }
            }
            return ResolvedLink(
                requestedURL: url,
                deepLinkURL: response.deepLinkURL,
                webLinkURL: response.webLinkURL,
                isPubWeb: true,
                error: response.unsafeLinkError
            )
        } catch let error as LinkError {
            throw error
        } catch is DeadlineExceeded {
            throw LinkError(
                code: .timeout,
                message: "No answer for \(url.absoluteString) within \(configuration.timeout.seconds) s;"
                    + " retry later or open the link in a browser."
            )
        } catch {
            throw LinkError(
                code: .cancelled,
                message: "The resolution of \(url.absoluteString) was cancelled before it finished.",
                underlyingError: error
            )
        }
    }

    /// Whether the transport bounds each request by the deadline itself (``URLSessionTransport``), so that a
    /// resolution needs no task or timer of the resolver's own.
    var transportEnforcesDeadline: Bool { transport is any DeadlineEnforcingTransport }

    fileprivate func request(_ url: URL) -> TransportRequest {
        TransportRequest(url: url, headerFields: [
            "Accept": "application/json",
            "User-Agent": configuration.userAgent,
        ])
    }

    fileprivate func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await transport.send(request, maxBodyBytes: configuration.maxBodyBytes)
    }

    fileprivate var clockNow: ContinuousClock.Instant { clock.now }

    fileprivate func sleep(until instant: ContinuousClock.Instant) async throws {
        try await clock.sleep(until: instant)
    }
}

/// One resolution: the redirect chain and the single retry it may spend.
private struct ResolutionAttempt: Sendable {
    let resolver: LinkResolver
    let deadline: ContinuousClock.Instant
    /// Set when the transport enforces the deadline itself (the resolver then runs no timer of its own).
    let enforcing: (any DeadlineEnforcingTransport)?

    private var configuration: LinkResolver.Configuration { resolver.configuration }

    func run(_ requestedURL: URL) async throws -> ResolutionResponse {
        var url = requestedURL
        var redirects = 0
        var retryLeft = true
        while true {
            let response = try await fetch(url, requestedURL: requestedURL, retryLeft: &retryLeft)
            switch response.statusCode {
            case 200..<300:
                // Checked here too, so a custom transport that ignores the cap cannot hand over a huge body.
                guard response.body.count <= configuration.maxBodyBytes else {
                    throw mapped(TransportError(.bodyTooLarge, detail: "\(response.body.count) bytes"), requestedURL)
                }
                return try ResolutionResponse.decode(response.body, requestedURL: requestedURL)
            case 301, 302, 303, 307, 308:
                guard let location = response.headerField("Location"),
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
                        message: "The answer for \(requestedURL.absoluteString) redirects to a URL the policy refuses. "
                            + refusal.message
                    )
                }
                url = target
            default:
                throw status(response.statusCode, requestedURL, "status \(response.statusCode)")
            }
        }
    }

    /// One request, plus the retry when it is allowed and fits before the deadline.
    private func fetch(_ url: URL, requestedURL: URL, retryLeft: inout Bool) async throws -> TransportResponse {
        do {
            let response = try await request(url)
            guard [502, 503, 504].contains(response.statusCode), retryLeft,
                  let wake = retryInstant(retryAfter: response.headerField("Retry-After"))
            else { return response }
            retryLeft = false
            try await resolver.sleep(until: wake)
            return try await send(url, requestedURL: requestedURL)
        } catch let error as TransportError where error.kind == .noAnswer && retryLeft {
            guard let wake = retryInstant(retryAfter: nil) else { throw mapped(error, requestedURL) }
            retryLeft = false
            try await resolver.sleep(until: wake)
            return try await send(url, requestedURL: requestedURL)
        } catch let error as TransportError {
            throw mapped(error, requestedURL)
        }
    }

    private func send(_ url: URL, requestedURL: URL) async throws -> TransportResponse {
        do {
            return try await request(url)
        } catch let error as TransportError {
            throw mapped(error, requestedURL)
        }
    }

    /// One request through the transport, bounded by the deadline when the transport enforces it.
    private func request(_ url: URL) async throws -> TransportResponse {
        let request = resolver.request(url)
        guard let enforcing else { return try await resolver.send(request) }
        let clock = resolver.clock
        // No request may start once the deadline has passed (a retry's pause can end close to it).
        guard clock.now < deadline else { throw DeadlineExceeded() }
        return try await enforcing.send(
            request, maxBodyBytes: configuration.maxBodyBytes, deadline: deadline, clock: clock)
    }

    /// When to retry, or `nil` when the wait does not fit before the deadline or the server asks for too long.
    private func retryInstant(retryAfter: String?) -> ContinuousClock.Instant? {
        var delay = configuration.retryDelay
        if let retryAfter {
            guard let seconds = RetryAfter.seconds(retryAfter), seconds <= configuration.maxRetryAfter.seconds else {
                return nil
            }
            delay = .milliseconds(Int64(seconds * 1000))
        }
        let wake = resolver.clockNow + delay
        // Leave the retried request some time of its own, or it would only turn into a timeout.
        return wake + .milliseconds(50) < deadline ? wake : nil
    }

    private func mapped(_ error: TransportError, _ url: URL) -> LinkError {
        switch error.kind {
        case .timedOut:
            LinkError(
                code: .timeout,
                message: "The transport gave up waiting for \(url.absoluteString) (\(error.description));"
                    + " retry later or open the link in a browser.",
                underlyingError: error
            )
        case .bodyTooLarge:
            LinkError(
                code: .responseTooLarge,
                message: "The answer for \(url.absoluteString) is larger than \(configuration.maxBodyBytes) bytes;"
                    + " it is not a Response Handler answer. Open the link in a browser.",
                underlyingError: error
            )
        default:
            LinkError(
                code: .network,
                message: "The request for \(url.absoluteString) failed (\(error.description)); retry later.",
                underlyingError: error
            )
        }
    }

    private func status(_ code: Int, _ url: URL, _ what: String) -> LinkError {
        LinkError(
            code: .httpStatus,
            message: "The server answered \(url.absoluteString) with \(what); open the link in a browser instead.",
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
