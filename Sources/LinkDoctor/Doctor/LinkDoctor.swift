import Foundation
import UniversalLinkKit

/// Checks a domain's association files as devices and Apple's CDN see them, and an email's links before it is
/// sent.
///
/// Two checks, each returning ``Finding`` values with stable codes:
/// - ``checkDomain(_:)`` fetches both AASA locations, Apple's CDN copy and (for Android) `assetlinks.json`;
/// - ``checkCampaign(_:)`` reads an HTML email's links and says what each will do.
///
/// Every fetch goes through the injected `LinkTransport` (by default a transport of the
/// platform's default kind, as a `LinkManager` makes: `CurlTransport` on Linux) under the ``Configuration/policy`` (https, no local
/// hosts unless allowed), with a deadline of ``Configuration/timeout`` per fetch, a body cap (128 KB + 1 byte for
/// an AASA file, 1 MiB for `assetlinks.json`), and no redirect followed: a 3xx is reported, since iOS and
/// Android do not follow it either.
///
/// Over https, ``checkDomain(_:)`` also checks the domain's HTTPS as App Transport Security does, with handshakes
/// of its own (``Configuration/checksTLS``); the files of a domain whose certificate it reports, and every file
/// when ``Configuration/caFile`` is set, are fetched with the doctor's own libcurl settings instead of the
/// transport (without verification, or trusting the file's roots), under the same policy and deadline.
///
/// ```swift
/// let doctor = LinkDoctor()
/// let findings = await doctor.checkDomain(DomainCheck(
///     domain: "news.example.com", appIDs: ["ABCDE12345.com.example.app"], expectsResponsysPaths: true))
/// ```
public struct LinkDoctor: Sendable {
    /// How the doctor fetches and what it compares against.
    public struct Configuration: Sendable, Hashable {
        /// The deadline of each fetch. Default 10 s.
        public var timeout: Duration
        /// Which URLs may be fetched or resolved. With `ResolutionPolicy.allowsHTTP` on, the domain's files
        /// are fetched over plain `http` (for local stand-ins); with `ResolutionPolicy.allowsLocalHosts` on,
        /// `DOMAIN` may be `127.0.0.1:PORT`.
        public var policy: ResolutionPolicy
        /// Where Apple's CDN serves its copies: the file of `DOMAIN` is at `BASE/a/v1/DOMAIN`. Always
        /// ``LinkDoctor/appleCDN`` for devices; a stand-in's in the package's tests and `linux-host --apple-cdn`.
        package var appleCDNBaseURL = LinkDoctor.appleCDN
        /// The `User-Agent` of an ordinary client: `UniversalLinkKit-LinkDoctor/1.0`.
        package var userAgent = "UniversalLinkKit-LinkDoctor/1.0"
        /// The `User-Agent` Apple's fetcher sends, compared with an ordinary client: `AASA-Bot/1.0.0`.
        package var appleBotUserAgent = "AASA-Bot/1.0.0"
        /// Which paths are pub-web app links and non-app links (default `/pub/acc` and `/pub/cc`).
        public var recognizer: LinkManager.Configuration.Recognition
        /// With `CampaignCheck.resolves`: the most resolutions in flight at once, 4, below the resolver's
        /// connections per host, so a campaign never queues behind its own requests.
        package var maximumConcurrentResolutions = 4
        /// With `CampaignCheck.resolves`: the time all of a campaign's resolutions may take together, from the
        /// first; `nil` is three times ``timeout``. A resolution in flight when it runs out ends then; a link not
        /// started by then is not requested at all (nothing counted) and is reported `link.resolveFailed` as such.
        package var resolutionBudget: Duration?
        /// A PEM file of root certificates trusted instead of the system's (CA bundle and CA path both replaced),
        /// for a staging server or a corporate TLS proxy with a private CA: ``checkDomain(_:)``'s TLS checks and
        /// its fetches of the domain's files and Apple's CDN copy trust these roots and no others. `nil` (the
        /// default): the system's roots. An injected transport keeps its own trust for everything else it sends.
        public var caFile: String?
        /// Whether ``checkDomain(_:)`` checks the domain's HTTPS as App Transport Security does (`tls.*` findings),
        /// with connections of its own beside the transport's. Default `true`; turn it off with an injected
        /// transport that stands in for the network.
        public var checksTLS: Bool

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - timeout: Deadline of each fetch.
        ///   - policy: Which URLs may be fetched.
        ///   - recognizer: The pub-web paths.
        ///   - caFile: A PEM file of roots trusted instead of the system's; `nil` for the system's.
        ///   - checksTLS: Whether the domain's HTTPS is checked.
        public init(
            timeout: Duration = .seconds(10),
            policy: ResolutionPolicy = .init(),
            recognizer: LinkManager.Configuration.Recognition = LinkManager.Configuration().recognition,
            caFile: String? = nil,
            checksTLS: Bool = true
        ) {
            self.timeout = timeout
            self.policy = policy
            self.recognizer = recognizer
            self.caFile = caFile
            self.checksTLS = checksTLS
        }
    }

    /// `https://app-site-association.cdn-apple.com`, where Apple's CDN serves the files devices read.
    package static var appleCDN: URL {
        URL(string: "https://app-site-association.cdn-apple.com")!  // A constant that parses.
    }

    /// Apple's size limit for an association file: 128 KB.
    package static let aasaSizeLimit = 128 * 1024
    /// The most read of an `assetlinks.json`: 1 MiB.
    package static let assetLinksSizeLimit = 1024 * 1024

    /// The settings.
    package let configuration: Configuration
    let transport: any LinkTransport
    let clock: LinkClock
    let fetcher: AssociationFetcher

    /// Creates a doctor.
    ///
    /// - Parameters:
    ///   - configuration: Settings.
    ///   - transport: Sends every request (association files and, with `--resolve`, resolutions). Default (`nil`):
    ///     a new transport of the platform's default kind (`CurlTransport` on Linux, trusting
    ///     ``Configuration/caFile``'s roots when it is set), which never re-sends a
    ///     request by itself, so each resolution counts its click once. The doctor never shuts a transport down:
    ///     call `shutdown()` on the one you pass when you are done with it.
    ///   - clock: The clock of the per-fetch deadline.
    public init(
        configuration: Configuration = .init(), transport: (any LinkTransport)? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(configuration: configuration, transport: transport, clock: LinkClock(clock))
    }

    /// A doctor on a wrapped clock, whose scheduler a test can watch.
    package init(configuration: Configuration = .init(), transport: (any LinkTransport)? = nil, clock: LinkClock) {
        let transport = transport
            ?? configuration.caFile.flatMap { CurlTransport.make(configuration: .init(caFile: $0)) }
            ?? LinkResolver.defaultTransport()
        self.configuration = configuration
        self.transport = transport
        self.clock = clock
        self.fetcher = AssociationFetcher(
            transport: transport, clock: clock, policy: configuration.policy, timeout: configuration.timeout)
    }

    /// The scheme the domain's own files are fetched with: `http` only when the policy allows it (local
    /// stand-ins), otherwise `https`.
    var originScheme: String { configuration.policy.allowsHTTP ? "http" : "https" }
}
