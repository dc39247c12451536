import Foundation

/// One step in the life of a handled link, for logs, metrics and traces.
///
/// The manager reports events to the handler given as ``LinkManager/Configuration/eventHandler`` (nothing is
/// built when none is set). Events of one link share its ``url``; a resolution's events come in the order the steps
/// happened. No event carries credentials: a URL's user and password are removed before it is reported.
///
/// ```swift
/// var configuration = LinkManager.Configuration(brandedDomains: ["news.example.com"])
/// configuration.eventHandler = LinkEventHandler { event in
///     if event.kind == .failed { print("link failed:", event.errorCode?.description ?? "") }
/// }
/// ```
public struct LinkEvent: Sendable, Hashable {
    /// What happened: an open set of static members; keep a `default` case when you switch over it.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        enum Storage: Sendable, Hashable {
            case received, coalesced, joined, refused
            case requestSent, answered, retrying, redirected
            case resolved, failed
            case delivered, held
            case routed, opened
            case claimStoreFailed
        }

        let storage: Storage

        init(_ storage: Storage) {
            self.storage = storage
        }

        /// A link was handed to the manager and recognised as one it handles.
        public static var received: Self { .init(.received) }
        /// The link joined an activation of the same click in this process, in flight or within the duplicate
        /// window: no request.
        public static var coalesced: Self { .init(.coalesced) }
        /// Another process of the fleet resolved the click (a shared ``ClaimStore``): the link gets that process's
        /// outcome and no request is sent here. Its ``resolved`` or ``failed`` event follows, with that outcome.
        public static var joined: Self { .init(.joined) }
        /// The link was refused before any request: ``LinkEvent/errorCode`` says why (policy, shutdown, not a
        /// pub-web link).
        public static var refused: Self { .init(.refused) }
        /// A request went out; ``LinkEvent/attempt`` is 1 for the first, 2 for the retry.
        public static var requestSent: Self { .init(.requestSent) }
        /// A status line arrived: ``LinkEvent/statusCode``, ``LinkEvent/bytes`` of body, ``LinkEvent/duration``
        /// of the request.
        public static var answered: Self { .init(.answered) }
        /// The request will be sent once more after ``LinkEvent/duration``; ``LinkEvent/reason`` says why.
        public static var retrying: Self { .init(.retrying) }
        /// The answer redirected to ``LinkEvent/target``, which the policy allowed.
        public static var redirected: Self { .init(.redirected) }
        /// The resolution succeeded; ``LinkEvent/duration`` is the whole resolution's.
        public static var resolved: Self { .init(.resolved) }
        /// The resolution failed with ``LinkEvent/errorCode``; ``LinkEvent/duration`` is the whole resolution's.
        public static var failed: Self { .init(.failed) }
        /// The link's notification was posted to the observers.
        public static var delivered: Self { .init(.delivered) }
        /// The link's notification is held while delivery is paused; its ``delivered`` event follows once delivery
        /// resumes.
        public static var held: Self { .init(.held) }
        /// A route accepted ``LinkEvent/target``; ``LinkEvent/reason`` is the route's pattern.
        public static var routed: Self { .init(.routed) }
        /// ``LinkEvent/target`` was handed to the opener.
        public static var opened: Self { .init(.opened) }
        /// The shared ``ClaimStore`` failed for the link; ``LinkEvent/reason`` is the store's error, and what the
        /// manager did follows ``ClaimStoreFailurePolicy``.
        public static var claimStoreFailed: Self { .init(.claimStoreFailed) }

        /// The kind's name, spelled as its static member: `"received"`, `"requestSent"`, ...
        public var description: String {
            switch storage {
            case .received: "received"
            case .coalesced: "coalesced"
            case .joined: "joined"
            case .refused: "refused"
            case .requestSent: "requestSent"
            case .answered: "answered"
            case .retrying: "retrying"
            case .redirected: "redirected"
            case .resolved: "resolved"
            case .failed: "failed"
            case .delivered: "delivered"
            case .held: "held"
            case .routed: "routed"
            case .opened: "opened"
            case .claimStoreFailed: "claimStoreFailed"
            }
        }
    }

    /// What happened.
    public var kind: Kind
    /// The link the event is about, as handed in, without user or password.
    public var url: URL
    /// The request's number within the resolution (1, or 2 for the retry), for request, answer and retry events.
    public var attempt: Int?
    /// The HTTP status, for ``Kind/answered``.
    public var statusCode: Int?
    /// The body's size in bytes, for ``Kind/answered``.
    public var bytes: Int?
    /// How long the step took (``Kind/answered``: the request; ``Kind/resolved``/``Kind/failed``: the whole
    /// resolution), or the pause before a retry (``Kind/retrying``).
    public var duration: Duration?
    /// The failure, for ``Kind/failed`` and ``Kind/refused``.
    public var errorCode: LinkError.Code?
    /// Why, in words: the retry's cause, the refusal's message, the route's pattern.
    public var reason: String?
    /// The other URL of the step: a redirect's target, the routed or opened URL (without user or password).
    public var target: URL?
    /// For ``Kind/answered``: how long the request waited for a connection slot before it started (part of
    /// ``duration``), when the transport measures it. A figure that grows under load says the per-host connection
    /// limit is the bottleneck.
    public var connectionWait: Duration?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - url: The link; its user and password are removed.
    ///   - attempt: The request's number.
    ///   - statusCode: The HTTP status.
    ///   - bytes: The body's size.
    ///   - duration: How long the step took.
    ///   - errorCode: The failure.
    ///   - reason: Why, in words.
    ///   - target: The other URL of the step; its user and password are removed.
    ///   - connectionWait: How long the request waited for a connection slot.
    public init(
        _ kind: Kind,
        url: URL,
        attempt: Int? = nil,
        statusCode: Int? = nil,
        bytes: Int? = nil,
        duration: Duration? = nil,
        errorCode: LinkError.Code? = nil,
        reason: String? = nil,
        target: URL? = nil,
        connectionWait: Duration? = nil
    ) {
        self.kind = kind
        self.url = url.redacted
        self.attempt = attempt
        self.statusCode = statusCode
        self.bytes = bytes
        self.duration = duration
        self.errorCode = errorCode
        self.reason = reason
        self.target = target?.redacted
        self.connectionWait = connectionWait
    }

    /// `"<kind> <url>"` followed by the fields that are set, for this package's test logs.
    package var description: String {
        var text = "\(kind) \(url.absoluteString)"
        if let attempt { text += " attempt=\(attempt)" }
        if let statusCode { text += " status=\(statusCode)" }
        if let bytes { text += " bytes=\(bytes)" }
        if let duration { text += " duration=\(duration)" }
        if let connectionWait { text += " connectionWait=\(connectionWait)" }
        if let errorCode { text += " error=\(errorCode)" }
        if let target { text += " target=\(target.absoluteString)" }
        if let reason { text += " reason=\"\(reason)\"" }
        return text
    }
}
