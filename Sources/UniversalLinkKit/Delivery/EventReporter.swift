import Foundation
import LinkRouting

/// The one place ``LinkEvent``s come from: every part of a link's walk (triage, coalescing, the fleet step, the
/// resolver, the broadcaster, the dispatcher) reports through it, and it words each event once.
///
/// Without a handler it builds nothing: every report is one `nil` check.
package struct EventReporter: Sendable {
    let handler: LinkEventHandler?

    package init(handler: LinkEventHandler?) {
        self.handler = handler
    }

    /// Reports one step.
    func emit(
        _ kind: LinkEvent.Kind,
        _ url: URL,
        attempt: Int? = nil,
        statusCode: Int? = nil,
        bytes: Int? = nil,
        duration: Duration? = nil,
        errorCode: LinkError.Code? = nil,
        reason: String? = nil,
        target: URL? = nil,
        connectionWait: Duration? = nil
    ) {
        guard let handler else { return }
        handler(LinkEvent(
            kind, url: url, attempt: attempt, statusCode: statusCode, bytes: bytes, duration: duration,
            errorCode: errorCode, reason: reason, target: target, connectionWait: connectionWait))
    }

    /// Reports a refusal: the error's code and message.
    func refused(_ url: URL, _ error: LinkError) {
        emit(.refused, url, errorCode: error.code, reason: error.message)
    }

    /// Reports the end of a resolution: ``LinkEvent/Kind/resolved``, or ``LinkEvent/Kind/failed`` with the error.
    /// A link that kept one of its two destinations is resolved, even with an unsafe one dropped.
    func finished(_ link: ResolvedLink, duration: Duration) {
        if let error = link.error, link.destinationURL == nil {
            emit(.failed, link.requestedURL, duration: duration, errorCode: error.code, reason: error.message)
        } else {
            emit(.resolved, link.requestedURL, duration: duration)
        }
    }

    /// Reports where a link went: routed, opened, or neither.
    func report(_ outcome: LinkOutcome, url: URL) {
        if let routed = outcome.routedURL { emit(.routed, url, reason: outcome.route?.pattern, target: routed) }
        if let opened = outcome.openedURL { emit(.opened, url, target: opened) }
    }
}
