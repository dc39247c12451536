import Foundation

// The manager's settings: what is recognised, how it is resolved, coalesced, delivered and shared with a fleet.

extension LinkManager {
    /// Manager settings.
    ///
    /// The common case fits in one line; every other setting is a property:
    /// ```swift
    /// let configuration = LinkManager.Configuration(brandedDomains: ["news.example.com"], timeout: .seconds(5))
    /// ```
    public struct Configuration: Sendable {
        /// Which paths are pub-web links.
        public var recognition: Recognition
        /// The deadline of one whole resolution, retry and redirects included. Default 10 s.
        public var timeout: Duration {
            get { resolution.timeout }
            set { resolution.timeout = newValue }
        }
        /// Which URLs may be requested: the link and every redirect.
        public var policy: ResolutionPolicy {
            get { resolution.policy }
            set { resolution.policy = newValue }
        }
        /// How links are resolved: deadline, body cap, retry, redirects, and the ``ResolutionPolicy``.
        package var resolution: Resolution
        /// How long after a resolution completed the same click is still treated as a duplicate. Default 2 s.
        public var duplicateWindow: Duration
        /// Hold notifications from the start, as setting ``LinkManager/isDeliveryPaused`` right after creation does.
        package var startsPaused = false
        /// The initial value of ``LinkManager/executeRsysWebURL``.
        package var executeRsysWebURL = false
        /// Receives a ``LinkEvent`` for every step of every link, for logs and metrics. Default `nil`: no event is
        /// built.
        public var eventHandler: LinkEventHandler?
        /// Claims shared with the other replicas of a fleet, so a click is counted once across them. Default `nil`:
        /// this process's claims alone. See ``ClaimStore``.
        public var claimStore: (any ClaimStore)?
        /// What happens when ``claimStore`` fails. Default ``ClaimStoreFailurePolicy/resolveLocally``.
        public var claimStoreFailure: ClaimStoreFailurePolicy

        /// Creates a configuration that resolves links of these branded domains, with this deadline; every other
        /// setting is a property to change afterwards.
        ///
        /// - Parameters:
        ///   - brandedDomains: The hosts links may be resolved on (see ``ResolutionPolicy/brandedDomains``).
        ///     Default none: only the policy's other rules apply.
        ///   - timeout: The deadline of one resolution, retry and redirects included. Default 10 s.
        ///   - duplicateWindow: How long after completion the same click is still a duplicate. Default 2 s.
        ///   - eventHandler: Receives the manager's events. Default `nil`.
        ///   - claimStore: Claims shared with a fleet. Default `nil`.
        ///   - claimStoreFailure: What a failing claim store means. Default
        ///     ``ClaimStoreFailurePolicy/resolveLocally``.
        public init(
            brandedDomains: [String] = [],
            timeout: Duration = .seconds(10),
            duplicateWindow: Duration = .seconds(2),
            eventHandler: LinkEventHandler? = nil,
            claimStore: (any ClaimStore)? = nil,
            claimStoreFailure: ClaimStoreFailurePolicy = .resolveLocally
        ) {
            self.recognition = Recognition()
            self.resolution = Resolution(timeout: timeout, policy: ResolutionPolicy(brandedDomains: brandedDomains))
            self.duplicateWindow = duplicateWindow
            self.eventHandler = eventHandler
            self.claimStore = claimStore
            self.claimStoreFailure = claimStoreFailure
        }

        /// How long a claim in ``claimStore`` holds when its holder publishes nothing: the resolution's time
        /// allowed and 2 s more, so a live holder is never taken over, and a dead one's click is taken over soon
        /// after its deadline. A store that keeps connections or statements alive for a claim sizes them by it.
        public var claimLease: Duration { timeout + .seconds(2) }
    }
}

extension LinkManager.Configuration {
    /// Which paths are Responsys pub-web links.
    ///
    /// Responsys rewrites every link of a campaign email into a click-tracking link on the branded domain: app links
    /// (declared in the domain's `apple-app-site-association`) open the app and are resolved; non-app links open the
    /// web. Accounts on global routing use other paths. Paths are compared as iOS compares `"paths"` in an
    /// association file: percent-encoded, case-sensitively, trailing slashes ignored.
    public struct Recognition: Sendable, Hashable {
        /// Paths of app links, which open the app and are resolved. Default `["/pub/acc"]`.
        public var appLinkPaths: [String]
        /// Paths of non-app links, which open the web; in-app hyperlinks and push URLs on them are still resolved
        /// when ``LinkManager/executeRsysWebURL`` is on. Default `["/pub/cc"]`.
        public var nonAppLinkPaths: [String]

        /// Creates a recognition setting.
        ///
        /// - Parameters:
        ///   - appLinkPaths: Paths of app links.
        ///   - nonAppLinkPaths: Paths of non-app links.
        package init(appLinkPaths: [String] = ["/pub/acc"], nonAppLinkPaths: [String] = ["/pub/cc"]) {
            self.appLinkPaths = appLinkPaths
            self.nonAppLinkPaths = nonAppLinkPaths
        }
    }

    /// How a link is resolved: one `GET` of the tracking URL, under a deadline, with one retry and a few redirects.
    package struct Resolution: Sendable, Hashable {
        /// The deadline of the whole resolution, retry and redirects included. Default 10 s.
        package var timeout: Duration
        /// The largest answer body accepted, counted while it is received. Default 64 KiB.
        package var maxBodyBytes: Int
        /// Redirects followed at most; one more is an `httpStatus` error. Default 3.
        package var maxRedirects: Int
        /// The pause before the retry when the server sent no `Retry-After`. Default 200 ms.
        package var retryDelay: Duration
        /// The longest `Retry-After` honoured; a longer one means no retry. Default 5 s.
        package var maxRetryAfter: Duration
        /// Which URLs may be requested (the link and every redirect).
        package var policy: ResolutionPolicy
        /// The `User-Agent` sent. Default `ResponsysPubWebResolver (CPU iPhone OS like Mac OS X)`, which the
        /// Response Handler recognises.
        package var userAgent: String

        /// Creates resolution settings.
        ///
        /// - Parameters:
        ///   - timeout: Deadline of a whole resolution.
        ///   - maxBodyBytes: Body cap.
        ///   - maxRedirects: Redirects followed at most.
        ///   - retryDelay: Pause before a retry without `Retry-After`.
        ///   - maxRetryAfter: Longest `Retry-After` honoured.
        ///   - policy: Which URLs may be requested.
        ///   - userAgent: The `User-Agent` header.
        package init(
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
}
