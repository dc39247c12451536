import Foundation
import LinkRouting
import UniversalLinkKit

/// Turns one incoming link into the service's answer: the one call to the manager each request makes.
struct LinkEndpoint: Sendable {
    let manager: LinkManager
    /// The longest one request waits, the configured deadline.
    let timeout: Duration

    /// Resolves `requested` through the manager (recognition, coalescing, deadline, routing) and describes the
    /// result.
    ///
    /// - Parameter requested: The link as the client sent it.
    /// - Returns: The answer; a text that is no URL at all is `notPubWebLink`, like any other URL the manager does
    ///   not take.
    func answer(for requested: String) async -> LinkAnswer {
        guard let url = URL(string: requested) else {
            return LinkAnswer(
                requestedURL: requested, isPubWeb: false, isDuplicate: false,
                error: .init(
                    code: LinkError.Code.notPubWebLink.description,
                    message: "\"\(requested)\" is not a URL: send the tracking link, percent-encoded, as ?url="
                )
            )
        }
        let outcome: LinkOutcome
        do {
            outcome = try await manager.resolve(url, timeout: timeout)
        } catch {
            // Refused before any resolution (not a pub-web link, shutting down), or this request gave up waiting.
            return LinkAnswer(
                requestedURL: requested, isPubWeb: error.code != .notPubWebLink, isDuplicate: false,
                error: .init(code: error.code.description, message: error.message)
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
            error: link?.error.map { .init(code: $0.code.description, message: $0.message) }
        )
    }
}
