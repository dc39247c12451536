import Foundation
public import Hummingbird
import HTTPTypes
import Logging
import NIOCore
import Synchronization
public import UniversalLinkKit
import UniversalLinkKitLogging

/// The routes of `link-service`, to mount on any Hummingbird router under a path prefix: `GET /open`,
/// `POST /resolve`, and optionally the probes `GET /healthz` and `GET /readyz`.
///
/// One manager answers every request; concurrent and repeated requests for one link make one upstream request.
///
/// ```swift
/// import Hummingbird
/// import UniversalLinkKit
/// import UniversalLinkKitHummingbird
///
/// let manager = LinkManager(configuration: .init(brandedDomains: ["news.example.com"], timeout: .seconds(5)))
/// let router = Router()
/// LinkRoutes(manager: manager).add(to: router, atPath: "/links")  // GET /links/open, POST /links/resolve
/// ```
///
/// Routes (under the prefix):
/// - `GET open?url=<percent-encoded tracking link>`: `302` to the deep link, else the web link; otherwise a JSON
///   body `{"requestedURL": str, "error": {"code": str, "message": str}}` with the status
///   ``UniversalLinkKit/LinkError/Code/responseStatus`` gives the code (`400` with `invalidRequest` when `url` is
///   missing).
/// - `POST resolve` with `{"url": str}` (at most ``Configuration/maximumBodySize`` bytes): `200` and the whole
///   result, `{"requestedURL", "deepLinkURL", "webLinkURL", "isPubWeb", "duplicate", "route", "error"}`; `400` and
///   `invalidRequest` for a body that is not such an object, or is too large.
/// - With ``Configuration/includesProbes``: `GET healthz` (liveness: `200` while the process serves) and
///   `GET readyz` (readiness: `200` while the manager takes links, `503` from the moment its shutdown began, drain
///   included (``LinkManagerService``); ``Configuration/readinessCheck`` may add a condition).
/// - With ``Configuration/metrics``: `GET metrics`, the Prometheus text exposition of ``LinkMetrics``.
///
/// Each handled link is one `info` line, `link handled`, on the request's logger, with `link.outcome`, `link.url`
/// (without query, fragment or credentials unless ``Configuration/logsFullURLs``), `link.duplicate`,
/// `http.endpoint` and `http.status`.
public struct LinkRoutes: Sendable {
    /// How the routes behave.
    public struct Configuration: Sendable {
        /// The longest one request waits for its link; `nil` (the default) waits as long as the manager's deadline.
        public var timeout: Duration?
        /// Whether `healthz` and `readyz` are mounted too. Default `false`.
        public var includesProbes: Bool
        /// Whether the `link handled` lines keep the tracking link's query and fragment. Default `false`: the query
        /// identifies the recipient.
        public var logsFullURLs: Bool
        /// The largest `POST resolve` body read, in bytes; a larger one is `400 invalidRequest`. Default 64 KiB.
        public var maximumBodySize: Int
        /// A check `readyz` makes while the manager takes links (a dependency's reach, such as the claims
        /// database): its ``Readiness`` is the answer. `nil` (the default): ready while the manager takes links.
        public var readinessCheck: (@Sendable () async -> Readiness)?
        /// The metrics `GET metrics` exposes; `nil` (the default): no `metrics` route. Give the same value's
        /// ``LinkMetrics/eventHandler`` to the manager.
        public var metrics: LinkMetrics?

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - timeout: The longest one request waits; `nil`: the manager's deadline.
        ///   - includesProbes: Mount `healthz` and `readyz`.
        ///   - logsFullURLs: Keep the links' query and fragment in the log lines.
        ///   - maximumBodySize: The largest `POST resolve` body, in bytes.
        ///   - readinessCheck: A check `readyz` makes while the manager takes links.
        ///   - metrics: The metrics `GET metrics` exposes.
        public init(
            timeout: Duration? = nil,
            includesProbes: Bool = false,
            logsFullURLs: Bool = false,
            maximumBodySize: Int = 64 * 1024,
            readinessCheck: (@Sendable () async -> Readiness)? = nil,
            metrics: LinkMetrics? = nil
        ) {
            self.timeout = timeout
            self.includesProbes = includesProbes
            self.logsFullURLs = logsFullURLs
            self.maximumBodySize = maximumBodySize
            self.readinessCheck = readinessCheck
            self.metrics = metrics
        }
    }

    /// What a ``Configuration/readinessCheck`` found: whether to answer `readyz` `200` or `503`, and the line to
    /// answer with.
    public struct Readiness: Sendable, Hashable {
        /// Whether the service should get traffic.
        public var isReady: Bool
        /// The body's line, such as `ready` or `claim store unreachable`.
        public var detail: String

        /// Creates a readiness.
        ///
        /// - Parameters:
        ///   - isReady: Whether the service should get traffic.
        ///   - detail: The body's line.
        public init(isReady: Bool, detail: String) {
            self.isReady = isReady
            self.detail = detail
        }
    }

    /// The manager every request goes through.
    public let manager: LinkManager
    /// How the routes behave.
    public let configuration: Configuration
    private let inFlight: InFlightCount
    private let draining: DrainFlag

    /// Creates the routes.
    ///
    /// - Parameters:
    ///   - manager: The manager every request goes through.
    ///   - configuration: How the routes behave.
    public init(manager: LinkManager, configuration: Configuration = .init()) {
        self.manager = manager
        self.configuration = configuration
        self.inFlight = InFlightCount()
        self.draining = DrainFlag()
    }

    /// Whether shutdown began: `readyz` answers 503 from then on, while links are still resolved until the manager
    /// stops taking them.
    public var isDraining: Bool { draining.isSet }

    /// Makes `readyz` answer 503 from now on (``LinkManagerService`` does it when shutdown begins).
    func beginDraining() { draining.set() }

    /// How many requests are waiting for their link right now (what ``LinkManagerService`` reports when shutdown
    /// starts).
    public var requestsInFlight: Int { inFlight.value }

    /// Mounts the routes on `router` under `path`.
    ///
    /// - Parameters:
    ///   - router: A `Router`, or a group of one.
    ///   - path: The prefix: `"/links"` mounts `/links/open`, `/links/resolve`, ...; `""` (the default) mounts
    ///     them at the root.
    public func add<Methods: RouterMethods>(to router: Methods, atPath path: RouterPath = "") {
        let group = router.group(path)
        let endpoint = LinkEndpoint(manager: manager, timeout: configuration.timeout)
        let configuration = configuration
        let inFlight = inFlight
        let manager = manager
        let draining = draining
        if configuration.includesProbes {
            group.get("healthz") { _, _ in Self.text(.ok, "ok\n") }
            let check = configuration.readinessCheck
            group.get("readyz") { _, _ in
                guard manager.isAcceptingLinks, !draining.isSet else { return Self.text(.serviceUnavailable, "shutting down\n") }
                guard let check else { return Self.text(.ok, "ready\n") }
                let readiness = await check()
                return Self.text(readiness.isReady ? .ok : .serviceUnavailable, readiness.detail + "\n")
            }
        }
        if let metrics = configuration.metrics {
            group.get("metrics") { _, _ in metrics.response() }
        }
        group.get("open") { request, context in
            let answer: LinkAnswer
            if let requested = request.uri.queryParameters.get("url") {
                answer = await inFlight.counting { await endpoint.answer(for: requested) }
            } else {
                answer = .invalidRequest("", message: "add the tracking link as ?url=<percent-encoded URL>")
            }
            let response: Response
            if let location = answer.location {
                response = Response(status: .found, headers: [.location: location.absoluteString])
            } else {
                response = Self.json(answer.openErrorJSON, status: answer.openStatus)
            }
            Self.logHandled(answer, status: response.status, endpoint: "/open", logger: context.logger, full: configuration.logsFullURLs)
            return response
        }
        group.post("resolve") { request, context in
            let answer: LinkAnswer
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: configuration.maximumBodySize)
            } catch is NIOTooManyBytesError {
                let answer = LinkAnswer.invalidRequest(
                    "", message: "the body is larger than \(configuration.maximumBodySize) bytes: send {\"url\": \"<tracking link>\"}"
                )
                Self.logHandled(answer, status: .badRequest, endpoint: "/resolve", logger: context.logger, full: configuration.logsFullURLs)
                return Self.json(answer.resolveJSON, status: .badRequest)
            }
            if let requested = Self.requestedURL(in: body) {
                answer = await inFlight.counting { await endpoint.answer(for: requested) }
            } else {
                answer = .invalidRequest("", message: #"send a JSON object {"url": "<tracking link>"}"#)
            }
            let status: HTTPResponse.Status = answer.error?.code == "invalidRequest" ? .badRequest : .ok
            Self.logHandled(answer, status: status, endpoint: "/resolve", logger: context.logger, full: configuration.logsFullURLs)
            return Self.json(answer.resolveJSON, status: status)
        }
    }

    /// The `url` of a `{"url": str}` body, or `nil`.
    private static func requestedURL(in body: ByteBuffer) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))
        return (object as? [String: Any])?["url"] as? String
    }

    private static func json(_ json: Data, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: json)))
    }

    private static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The one line per handled link: `info`, since an application decides its own levels (swift-log's
    /// guidelines), with the outcome code to grep and count.
    private static func logHandled(_ answer: LinkAnswer, status: HTTPResponse.Status, endpoint: String, logger: Logger, full: Bool) {
        logger.info(
            "link handled",
            metadata: [
                "link.outcome": .string(answer.outcome),
                "link.url": .string(answer.requestedURL.loggedLink(full: full)),
                "link.duplicate": .stringConvertible(answer.isDuplicate),
                "http.endpoint": .string(endpoint),
                "http.status": .stringConvertible(status.code),
            ]
        )
    }
}

/// Whether shutdown began, shared by every copy of one ``LinkRoutes``.
private final class DrainFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    var isSet: Bool { flag.load(ordering: .relaxed) }

    func set() { flag.store(true, ordering: .relaxed) }
}

/// The number of requests waiting for their link, shared by every route of one ``LinkRoutes``.
private final class InFlightCount: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func counting<T>(_ body: () async -> T) async -> T {
        count.add(1, ordering: .relaxed)
        defer { count.subtract(1, ordering: .relaxed) }
        return await body()
    }
}
