import Foundation
import LinkRouting
import UniversalLinkKit

/// Turns one incoming link into the routes' answer: the one call to the manager each request makes.
struct LinkEndpoint: Sendable {
    let manager: LinkManager
    /// The longest one request waits; `nil`: the manager's configured deadline.
    let timeout: Duration?

    /// Resolves `requested` through the manager (recognition, coalescing, deadline, routing) and describes the
    /// result.
    ///
    /// A link refused once shutdown began is `shuttingDown` (503): nothing was sent, so the client retries on another
    /// replica. A resolution the manager cancelled because its grace period ended is `shuttingDown` too, with another
    /// message: its request may already have reached the Response Handler and counted the click, so the client retries
    /// once, knowing the click may count twice.
    ///
    /// - Parameter requested: The link as the client sent it.
    /// - Returns: The answer; a text that is no URL at all is `notPubWebLink`, like any other URL the manager does
    ///   not take.
    func answer(for requested: String) async -> LinkAnswer {
        guard let url = URL(string: requested) else {
            // The text itself stays out of the message: messages end up in logs, and it may hold a recipient's query.
            return LinkAnswer(
                requestedURL: requested, isPubWeb: false, isDuplicate: false,
                error: .init(code: .notPubWebLink, message: "requestedURL is not a URL: send the tracking link, percent-encoded, as ?url=")
            )
        }
        // A port no TCP connection can have would otherwise reach the transport and come back as a network failure.
        if let port = URLComponents(url: url, resolvingAgainstBaseURL: false)?.port, !(0...65535).contains(port) {
            return .invalidRequest(requested, message: "the link's port \(port) is over 65535: send the tracking link as it is in the email")
        }
        let outcome: LinkOutcome
        do {
            outcome = try await manager.resolve(url, timeout: timeout)
        } catch {
            // Refused before any resolution (not a pub-web link, shutting down), or this request gave up waiting.
            return LinkAnswer(
                requestedURL: requested, isPubWeb: error.code != .notPubWebLink, isDuplicate: false,
                error: failure(error)
            )
        }
        let link = outcome.resolvedLink
        return LinkAnswer(
            requestedURL: requested,
            deepLinkURL: link?.deepLinkURL,
            webLinkURL: link?.webLinkURL,
            isPubWeb: link?.isPubWeb ?? true,
            isDuplicate: outcome.isDuplicate,
            route: outcome.route.map { .init(pattern: $0.pattern, parameters: $0.parameters) },
            error: link?.error.map { failure($0) }
        )
    }

    /// The answer's error: a cancellation during shutdown is the shutdown's doing, not the client's.
    private func failure(_ error: LinkError) -> LinkAnswer.Failure {
        guard error.code == .cancelled, !manager.isAcceptingLinks else { return .init(error) }
        return .init(
            code: .shuttingDown,
            message: "The service shut down before the Response Handler answered this link: the click may already be"
                + " counted. Retry once on another instance (the click may then count twice), and open the link in the"
                + " browser if that fails too."
        )
    }
}
