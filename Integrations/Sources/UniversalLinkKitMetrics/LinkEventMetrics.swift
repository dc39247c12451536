public import CoreMetrics
import Foundation
import Synchronization
public import UniversalLinkKit

/// Counts the ``UniversalLinkKit/LinkEvent``s of a `LinkManager` with swift-metrics.
///
/// Plug it in as the manager's event handler; the metrics go to the factory given (by default the one
/// `MetricsSystem.bootstrap(_:)` installed):
///
/// ```swift
/// var configuration = LinkManager.Configuration(brandedDomains: ["news.example.com"])
/// configuration.eventHandler = LinkEventMetrics().handler
/// ```
///
/// | Metric | Type | Dimensions | Counts |
/// | --- | --- | --- | --- |
/// | `ulk_links_total` | counter | `outcome`: `resolved`, `joined`, or the `LinkError.Code` (`timeout`, `hostNotAllowed`, ...) | every resolution that ended here (``UniversalLinkKit/LinkEvent/Kind/resolved``, ``UniversalLinkKit/LinkEvent/Kind/failed``), every link refused before any request (``UniversalLinkKit/LinkEvent/Kind/refused``), and as `joined` every one answered with another replica's outcome (``UniversalLinkKit/LinkEvent/Kind/joined``, a shared claim store); not the duplicates within this process. Summed over a fleet, a click resolved once counts `resolved` once |
/// | `ulk_resolution_duration_seconds` | timer | none | the whole resolution, request(s) and retry included, success or failure |
/// | `ulk_connection_wait_seconds` | timer | none | how long each answered request waited for a connection slot before it started (``UniversalLinkKit/LinkEvent/connectionWait``, measured by `CurlTransport`); growing figures mean the per-host connection limit is the bottleneck |
/// | `ulk_requests_total` | counter | `status`: the HTTP status code (`200`, `503`, ...) | every answer with a status line (``UniversalLinkKit/LinkEvent/Kind/answered``) |
/// | `ulk_retries_total` | counter | none | every retry (``UniversalLinkKit/LinkEvent/Kind/retrying``) |
/// | `ulk_coalesced_total` | counter | none | every activation that joined another of the same click, in this process (``UniversalLinkKit/LinkEvent/Kind/coalesced``) or another (``UniversalLinkKit/LinkEvent/Kind/joined``): no request |
///
/// Other events are not counted. The names follow Prometheus' conventions (`_total` for counters, the unit in the
/// name); a Prometheus backend (swift-prometheus) exports the timer as a histogram in seconds.
public struct LinkEventMetrics: Sendable {
    /// The label of the counter of finished links, dimension `outcome`.
    public static let linksLabel = "ulk_links_total"
    /// The label of the resolution timer.
    public static let durationLabel = "ulk_resolution_duration_seconds"
    /// The label of the connection-slot wait timer.
    public static let connectionWaitLabel = "ulk_connection_wait_seconds"
    /// The label of the counter of answers, dimension `status`.
    public static let requestsLabel = "ulk_requests_total"
    /// The label of the retry counter.
    public static let retriesLabel = "ulk_retries_total"
    /// The label of the counter of coalesced activations.
    public static let coalescedLabel = "ulk_coalesced_total"

    private let factory: any MetricsFactory
    private let duration: CoreMetrics.Timer
    private let connectionWait: CoreMetrics.Timer
    private let retries: Counter
    private let coalesced: Counter
    /// The links whose flight waits for another process's outcome: their end counts `joined`.
    private let joining: JoiningLinks

    /// Creates the metrics; the ones without dimensions are created at once, so they are exported at zero.
    ///
    /// - Parameter factory: The backend; by default `MetricsSystem.factory`, the bootstrapped one.
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
        self.duration = CoreMetrics.Timer(label: Self.durationLabel, dimensions: [], factory: factory)
        self.connectionWait = CoreMetrics.Timer(label: Self.connectionWaitLabel, dimensions: [], factory: factory)
        self.retries = Counter(label: Self.retriesLabel, dimensions: [], factory: factory)
        self.coalesced = Counter(label: Self.coalescedLabel, dimensions: [], factory: factory)
        self.joining = JoiningLinks()
    }

    /// The handler to set as the manager's event handler.
    public var handler: LinkEventHandler {
        let metrics = self
        return LinkEventHandler { event in metrics.record(event) }
    }

    /// Updates the metrics an event counts for; other events are ignored.
    ///
    /// - Parameter event: The event.
    public func record(_ event: LinkEvent) {
        switch event.kind {
        case .resolved, .failed:
            let joined = joining.end(event.url)
            countLink(outcome: joined ? "joined" : event.errorCode?.description ?? "resolved")
            if let elapsed = event.duration { duration.recordNanoseconds(Self.nanoseconds(elapsed)) }
        case .refused:
            countLink(outcome: event.errorCode?.description ?? "refused")
        case .answered:
            if let wait = event.connectionWait { connectionWait.recordNanoseconds(Self.nanoseconds(wait)) }
            if let status = event.statusCode {
                Counter(label: Self.requestsLabel, dimensions: [("status", String(status))], factory: factory).increment()
            }
        case .requestSent:
            // Resolved here after all (the other process's lease ended, or the store failed).
            joining.end(event.url)
        case .retrying:
            retries.increment()
        case .coalesced:
            coalesced.increment()
        case .joined:
            coalesced.increment()
            joining.begin(event.url)
        default:
            break
        }
    }

    private func countLink(outcome: String) {
        // The backend keeps one counter per label and dimensions (swift-metrics' contract), so making the handle
        // per event only looks it up.
        Counter(label: Self.linksLabel, dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64.max / 1_000_000_000 else { return .max }
        return max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

extension LinkEventHandler {
    /// A handler that counts events into swift-metrics, as ``LinkEventMetrics`` documents.
    ///
    /// - Parameter factory: The backend; by default `MetricsSystem.factory`.
    /// - Returns: The handler.
    public static func metrics(factory: any MetricsFactory = MetricsSystem.factory) -> LinkEventHandler {
        LinkEventMetrics(factory: factory).handler
    }
}

/// The links whose flight was answered by another process and has not ended yet, by URL (a process has one flight per
/// click at a time). Bounded: a flight that ended before its answer came (its deadline) never ends here, so past the
/// bound the set starts over, which at worst counts one such link `resolved` rather than `joined`.
private final class JoiningLinks: Sendable {
    private static let bound = 10_000
    private let links = Mutex(Set<URL>())

    func begin(_ url: URL) {
        links.withLock { links in
            if links.count >= Self.bound { links.removeAll(keepingCapacity: true) }
            links.insert(url)
        }
    }

    /// Whether `url` was joining; it is not any more.
    @discardableResult
    func end(_ url: URL) -> Bool {
        links.withLock { $0.isEmpty ? false : $0.remove(url) != nil }
    }
}
