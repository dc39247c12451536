import CoreMetrics
import Hummingbird
import HTTPTypes
import NIOCore
public import Prometheus
public import UniversalLinkKit
import UniversalLinkKitMetrics

/// The `ulk_` metrics of a manager (and of a claim store, through ``factory``) in a Prometheus registry of their own,
/// and their text exposition for `GET /metrics`.
///
/// One line of set-up in an app that mounts ``LinkRoutes``: make one, give its ``eventHandler`` to the manager, and
/// the routes mount `GET metrics` beside `open` and `resolve`:
///
/// ```swift
/// let metrics = LinkMetrics(deadline: .seconds(5))
/// var configuration = LinkManager.Configuration(brandedDomains: ["news.example.com"], timeout: .seconds(5))
/// configuration.eventHandler = metrics.eventHandler
/// let links = LinkRoutes(manager: LinkManager(configuration: configuration), configuration: .init(metrics: metrics))
/// ```
///
/// The metrics and their labels are those of `LinkEventMetrics` (UniversalLinkKitMetrics); the resolution-duration
/// histogram's buckets run past the deadline (the deadline, 10 % past it, twice it), so a timed-out resolution lands in
/// a bucket of its own rather than only in `+Inf`.
public struct LinkMetrics: Sendable {
    /// The registry the metrics live in.
    public let registry: PrometheusCollectorRegistry
    /// A swift-metrics factory over ``registry``, with the duration buckets set: give it to a claim store
    /// (`PostgresClaimStore(url:configuration:metrics:logger:)`) so that its `ulk_claim*` metrics are exposed too.
    public let factory: PrometheusMetricsFactory

    /// Creates an empty registry and its factory.
    ///
    /// - Parameter deadline: The manager's resolution deadline, which the duration buckets run past. Default 10 s.
    public init(deadline: Duration = .seconds(10)) {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[LinkEventMetrics.durationLabel] = Self.durationBuckets(deadline: deadline)
        // A claim statement takes about 0.1 ms on loopback and is given up after a second.
        factory.durationHistogramBuckets["ulk_claim_duration_seconds"] = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1),
        ]
        self.registry = registry
        self.factory = factory
    }

    /// The handler to set as the manager's `LinkManager.Configuration.eventHandler`: counts its events into
    /// ``registry``.
    public var eventHandler: LinkEventHandler { LinkEventMetrics(factory: factory).handler }

    /// The Prometheus text exposition (format 0.0.4) of every metric in ``registry``.
    ///
    /// - Returns: The text, as bytes.
    public func exposition() -> [UInt8] {
        var text: [UInt8] = []
        registry.emit(into: &text)
        return text
    }

    /// `GET /metrics`' answer.
    func response() -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: exposition()))
        )
    }

    /// The resolution-duration histogram's buckets: Prometheus' usual ladder under the deadline, then the deadline
    /// itself, 10 % past it (where timed-out resolutions land) and twice it, so no resolution falls only in `+Inf`.
    static func durationBuckets(deadline: Duration) -> [Duration] {
        let ladder: [Duration] = [
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
            .seconds(25), .seconds(50), .seconds(100), .seconds(250), .seconds(500), .seconds(1000), .seconds(2500),
        ]
        return ladder.filter { $0 < deadline } + [deadline, deadline * 1.1, deadline * 2]
    }
}
