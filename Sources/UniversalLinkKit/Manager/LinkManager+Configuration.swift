import Foundation

extension LinkManager {
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
        /// Claims shared with the other replicas of a fleet, so a click is counted once across them. Default `nil`:
        /// this process's claims alone, at no added cost. See ``ClaimStore``.
        public var claimStore: (any ClaimStore)?
        /// What happens when ``claimStore`` fails. Default ``ClaimStoreFailurePolicy/resolveLocally``.
        public var claimStoreFailure: ClaimStoreFailurePolicy = .resolveLocally

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

        /// How long a claim in ``claimStore`` holds when its holder publishes nothing: the resolution's time
        /// allowed and 2 s more, so a live holder is never taken over, and a dead one's click is taken over soon
        /// after its deadline.
        public var claimLease: Duration { resolution.timeout + .seconds(2) }
    }
}
