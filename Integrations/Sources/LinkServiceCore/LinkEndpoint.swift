import Foundation
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
    /// - Returns: The answer; a text that is no absolute URL is an `invalidRequest`.
    func answer(for requested: String) async -> LinkAnswer {
        guard let url = URL(string: requested), url.scheme?.isEmpty == false else {
            return .invalidRequest(requested, message: "\"\(requested)\" is not an absolute URL: send the tracking link, percent-encoded")
        }
        let handle = manager.handle(UserActivity(browsingWeb: url))
        guard handle.isHandled else {
            return LinkAnswer(
                requestedURL: requested, isPubWeb: false, isDuplicate: false,
                error: .init(code: "notPubWebLink", message: "\(requested) is not a pub-web app link: nothing was requested. Open it as it is.")
            )
        }
        let outcome = await handle.outcome
        let link = outcome.resolvedLink
        return LinkAnswer(
            requestedURL: requested,
            deepLinkURL: link?.deepLinkURL,
            webLinkURL: link?.webLinkURL,
            isPubWeb: link?.isPubWeb ?? true,
            isDuplicate: handle.isDuplicate,
            route: nil,
            error: link?.error.map { .init(code: $0.code.description, message: $0.message) }
        )
    }
}
