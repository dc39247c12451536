import Foundation
public import Logging
public import UniversalLinkKit

/// Sends the ``UniversalLinkKit/LinkEvent``s of a `LinkManager` to a swift-log `Logger`, one entry per event,
/// with structured metadata.
///
/// Plug it in as the manager's event handler:
///
/// ```swift
/// var configuration = LinkManager.Configuration(brandedDomains: ["news.example.com"])
/// configuration.eventHandler = LinkEventLogger(logger: Logger(label: "links")).handler
/// ```
///
/// Levels follow swift-log's guidelines for libraries ("Choosing log levels"): nothing above `debug`, because every
/// event is also visible another way (the caller receives each result and failure; `UniversalLinkKitMetrics` counts
/// retries and failures), and normal operations must not flood production logs.
/// - `trace`: the steps of the normal path: ``UniversalLinkKit/LinkEvent/Kind/received``,
///   ``UniversalLinkKit/LinkEvent/Kind/requestSent``, ``UniversalLinkKit/LinkEvent/Kind/answered``,
///   ``UniversalLinkKit/LinkEvent/Kind/redirected``, ``UniversalLinkKit/LinkEvent/Kind/delivered``,
///   ``UniversalLinkKit/LinkEvent/Kind/held``.
/// - `debug`: one line per decision or result: ``UniversalLinkKit/LinkEvent/Kind/coalesced``,
///   ``UniversalLinkKit/LinkEvent/Kind/joined``, ``UniversalLinkKit/LinkEvent/Kind/refused``, ``UniversalLinkKit/LinkEvent/Kind/retrying``,
///   ``UniversalLinkKit/LinkEvent/Kind/resolved``, ``UniversalLinkKit/LinkEvent/Kind/failed`` (a failure the
///   caller receives is not an error of the process), ``UniversalLinkKit/LinkEvent/Kind/routed``,
///   ``UniversalLinkKit/LinkEvent/Kind/opened``.
///
/// A kind added to `LinkEvent` later is logged at `trace`. Metadata keys (set only when the event carries the
/// field): `link.event` (the kind), `link.url`, `link.attempt`, `link.status`, `link.bytes`, `link.duration` and
/// `link.connection_wait` (seconds, as decimals), `link.error` (the `LinkError.Code`), `link.target`, `link.reason`.
///
/// URLs are logged without user, password, query or fragment (`https://news.example.com/pub/acc?…`): a tracking
/// link's query identifies the recipient. ``logsFullURLs`` keeps query and fragment, for local debugging.
public struct LinkEventLogger: Sendable {
    /// The logger entries go to; its own log level filters them as usual.
    public var logger: Logger
    /// Whether `link.url` and `link.target` keep their query and fragment. Default `false`: a tracking link's query
    /// identifies the recipient; turn it on for local debugging only.
    public var logsFullURLs: Bool

    /// Creates an adapter.
    ///
    /// - Parameters:
    ///   - logger: The logger entries go to.
    ///   - logsFullURLs: Keep the URLs' query and fragment in the entries. Default `false`.
    public init(logger: Logger, logsFullURLs: Bool = false) {
        self.logger = logger
        self.logsFullURLs = logsFullURLs
    }

    /// The handler to set as the manager's event handler.
    public var handler: LinkEventHandler {
        let logger = self
        return LinkEventHandler { event in logger.log(event) }
    }

    /// Logs one event at ``level(for:)`` with its metadata.
    ///
    /// - Parameter event: The event.
    public func log(_ event: LinkEvent) {
        let level = Self.level(for: event.kind)
        // The metadata is built only when the entry will be written.
        guard logger.logLevel <= level else { return }
        logger.log(level: level, "link \(event.kind)", metadata: Self.metadata(of: event, fullURLs: logsFullURLs))
    }

    /// The level an event of this kind is logged at.
    ///
    /// - Parameter kind: The event's kind.
    /// - Returns: `warning` for a failed claim store, `debug` for decisions and results, `trace` for the steps in
    ///   between.
    public static func level(for kind: LinkEvent.Kind) -> Logger.Level {
        switch kind {
        case .claimStoreFailed: .warning
        case .coalesced, .joined, .refused, .retrying, .resolved, .failed, .routed, .opened: .debug
        default: .trace
        }
    }

    /// The structured metadata of an event: the keys listed on ``LinkEventLogger``.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - fullURLs: Keep the URLs' query and fragment. Default `false`.
    /// - Returns: The metadata.
    public static func metadata(of event: LinkEvent, fullURLs: Bool = false) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "link.event": .string(event.kind.description),
            "link.url": .string(event.url.loggedString(full: fullURLs)),
        ]
        if let attempt = event.attempt { metadata["link.attempt"] = .string(String(attempt)) }
        if let status = event.statusCode { metadata["link.status"] = .string(String(status)) }
        if let bytes = event.bytes { metadata["link.bytes"] = .string(String(bytes)) }
        if let duration = event.duration { metadata["link.duration"] = .string(Self.seconds(duration)) }
        if let wait = event.connectionWait { metadata["link.connection_wait"] = .string(Self.seconds(wait)) }
        if let code = event.errorCode { metadata["link.error"] = .string(code.description) }
        if let target = event.target { metadata["link.target"] = .string(target.loggedString(full: fullURLs)) }
        if let reason = event.reason { metadata["link.reason"] = .string(reason) }
        return metadata
    }

    /// A duration as seconds with microsecond precision, `"0.012345"`: one unit for every log line.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let micros = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let sign = micros < 0 ? "-" : ""
        let magnitude = micros.magnitude
        let fraction = String(magnitude % 1_000_000)
        return "\(sign)\(magnitude / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

extension LinkEventHandler {
    /// A handler that logs every event to `logger`, at the levels ``LinkEventLogger`` documents.
    ///
    /// ```swift
    /// configuration.eventHandler = .logging(to: Logger(label: "links"))
    /// ```
    ///
    /// - Parameter logger: The logger.
    /// - Returns: The handler.
    public static func logging(to logger: Logger) -> LinkEventHandler {
        LinkEventLogger(logger: logger).handler
    }
}
