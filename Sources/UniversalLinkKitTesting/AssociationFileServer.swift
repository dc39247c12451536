import Foundation
import Synchronization
internal import _LinkKitLocking

/// Serves association files from a ``ResponseHandlerStub``: a domain's AASA and `assetlinks.json` files, with
/// the status, content type and redirects of your choice, a different answer for Apple's fetcher, or the copy
/// Apple's CDN serves (a second stub at `/a/v1/DOMAIN`).
///
/// It installs itself as the stub's responder (see ``ResponseHandlerStub/setResponder(_:)``); paths it has no
/// answer for fall through to the stub's normal service (the link table, else `404`).
///
/// ```swift
/// // snippet: skip
/// // (a package type, which the snippets module cannot see)
/// let origin = try ResponseHandlerStub()
/// let files = AssociationFileServer(on: origin)
/// files.serve(aasa, at: AssociationFileServer.wellKnownPath)
/// files.serve("Forbidden", at: AssociationFileServer.wellKnownPath, status: 403, contentType: "text/plain",
///             forUserAgentContaining: "AASA-Bot")
/// let cdn = try ResponseHandlerStub()
/// AssociationFileServer(on: cdn).serve(aasa, at: AssociationFileServer.cdnPath(for: "127.0.0.1:\(origin.port)"))
/// ```
package final class AssociationFileServer: Sendable {
    /// `/.well-known/apple-app-site-association`.
    package static let wellKnownPath = "/.well-known/apple-app-site-association"
    /// `/apple-app-site-association`, the root location iOS tries second.
    package static let rootPath = "/apple-app-site-association"
    /// `/.well-known/assetlinks.json`.
    package static let assetLinksPath = "/.well-known/assetlinks.json"

    /// The path of a domain's copy on Apple's CDN: `/a/v1/DOMAIN`.
    ///
    /// - Parameter domain: The domain as the doctor names it (with its port for a local stand-in).
    /// - Returns: The path.
    package static func cdnPath(for domain: String) -> String {
        "/a/v1/\(domain)"
    }

    private struct Rule: Sendable {
        var userAgentFragment: String?
        var behavior: Behavior
    }

    /// Per path, the rules in the order given; a user-agent rule is tried before the plain one.
    private let rules = Mutex<[String: [Rule]]>([:])

    /// Creates a server and installs it as `stub`'s responder, replacing any responder it had.
    ///
    /// - Parameter stub: The stub that answers; it keeps this server alive until it shuts down.
    package init(on stub: ResponseHandlerStub) {
        stub.setResponder { [self] request in self.behavior(for: request) }
    }

    /// Serves `body` at `path`.
    ///
    /// - Parameters:
    ///   - body: The file's text (any bytes you want to test with).
    ///   - path: The request path, such as ``wellKnownPath``.
    ///   - status: The status, `200` by default.
    ///   - contentType: The `Content-Type`, `application/json` by default.
    ///   - userAgent: When set, this answer is only for requests whose `User-Agent` contains this text (such as
    ///     `AASA-Bot`); other requests get the plain answer.
    package func serve(
        _ body: String, at path: String, status: Int = 200, contentType: String = "application/json",
        forUserAgentContaining userAgent: String? = nil
    ) {
        set(.status(status, headers: [("Content-Type", contentType)], body: body), at: path, userAgent: userAgent)
    }

    /// Answers `path` with a redirect.
    ///
    /// - Parameters:
    ///   - path: The request path.
    ///   - location: The `Location` header.
    ///   - status: The status, `301` by default.
    ///   - userAgent: As in ``serve(_:at:status:contentType:forUserAgentContaining:)``.
    package func redirect(
        _ path: String, to location: String, status: Int = 301, forUserAgentContaining userAgent: String? = nil
    ) {
        set(.redirect(to: location, status: status), at: path, userAgent: userAgent)
    }

    /// Answers `path` with any ``Behavior`` (a delay, a dropped connection, a huge body...).
    ///
    /// - Parameters:
    ///   - behavior: The behaviour.
    ///   - path: The request path.
    ///   - userAgent: As in ``serve(_:at:status:contentType:forUserAgentContaining:)``.
    package func answer(_ behavior: Behavior, at path: String, forUserAgentContaining userAgent: String? = nil) {
        set(behavior, at: path, userAgent: userAgent)
    }

    /// Forgets every answer for `path`, which then falls through to the stub's normal service.
    ///
    /// - Parameter path: The request path.
    package func remove(_ path: String) {
        _ = rules.withTrackedLock { $0.removeValue(forKey: path) }
    }

    private func set(_ behavior: Behavior, at path: String, userAgent: String?) {
        rules.withTrackedLock { rules in
            var list = rules[path, default: []]
            list.removeAll { $0.userAgentFragment == userAgent }
            list.append(Rule(userAgentFragment: userAgent, behavior: behavior))
            rules[path] = list
        }
    }

    private func behavior(for request: RecordedRequest) -> Behavior? {
        let list = rules.withTrackedLock { $0[request.path] } ?? []
        let agent = request.header("User-Agent") ?? ""
        if let rule = list.first(where: { $0.userAgentFragment.map { agent.contains($0) } ?? false }) {
            return rule.behavior
        }
        return list.first { $0.userAgentFragment == nil }?.behavior
    }
}
