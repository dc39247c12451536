import Foundation
import LinkRouting

/// Turns what happens to a link into ``LinkEvent``s for the host's handler: the manager's steps, the resolver's
/// steps and a link's outcome, worded once.
///
/// Without a handler it builds nothing: every report is one `nil` check, and the resolver gets no step hook at all.
struct EventReporter: Sendable {
    let handler: LinkEventHandler?

    /// Reports one step.
    func emit(
        _ kind: LinkEvent.Kind,
        _ url: URL,
        duration: Duration? = nil,
        errorCode: LinkError.Code? = nil,
        reason: String? = nil,
        target: URL? = nil
    ) {
        guard let handler else { return }
        handler(LinkEvent(kind, url: url, duration: duration, errorCode: errorCode, reason: reason, target: target))
    }

    /// Reports a refusal: the error's code and message.
    func refused(_ url: URL, _ error: LinkError) {
        emit(.refused, url, errorCode: error.code, reason: error.message)
    }

    /// Reports the end of a resolution: ``LinkEvent/Kind/resolved``, or ``LinkEvent/Kind/failed`` with the error.
    func finished(_ link: ResolvedLink, duration: Duration) {
        guard handler != nil else { return }
        // A link that kept one of its two destinations is resolved, even with an unsafe one dropped.
        if let error = link.error, link.destinationURL == nil {
            emit(.failed, link.requestedURL, duration: duration, errorCode: error.code, reason: error.message)
        } else {
            emit(.resolved, link.requestedURL, duration: duration)
        }
    }

    /// Reports where a link went: routed, opened, or neither.
    func report(_ outcome: LinkOutcome, url: URL) {
        guard handler != nil else { return }
        if let routed = outcome.routedURL { emit(.routed, url, reason: outcome.route?.pattern, target: routed) }
        if let opened = outcome.openedURL { emit(.opened, url, target: opened) }
    }

    /// The resolver's step hook for one link, or `nil` without a handler (the resolver then builds no step).
    func steps(of url: URL) -> (@Sendable (ResolutionStep) -> Void)? {
        guard let handler else { return nil }
        return { step in
            if let event = Self.event(for: step, of: url) { handler(event) }
        }
    }

    /// The public event of a resolver step; a failed request shows up as the retry or the failure that follows it.
    static func event(for step: ResolutionStep, of url: URL) -> LinkEvent? {
        switch step {
        case let .requestSent(attempt, requested):
            LinkEvent(.requestSent, url: url, attempt: attempt, target: requested == url.redacted ? nil : requested)
        case let .answered(attempt, statusCode, bytes, duration, connectionWait):
            LinkEvent(
                .answered, url: url, attempt: attempt, statusCode: statusCode, bytes: bytes, duration: duration,
                connectionWait: connectionWait)
        case let .retrying(reason, after):
            LinkEvent(.retrying, url: url, attempt: 2, duration: after, reason: reason)
        case let .redirected(target):
            LinkEvent(.redirected, url: url, target: target)
        case .requestFailed:
            nil
        }
    }
}
