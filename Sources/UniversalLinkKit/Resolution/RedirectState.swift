import Foundation

/// The redirect chain of one resolution, as a value: the URL to request next and how many redirects it took.
///
/// Each 3xx answer either moves it to a target the policy admits or ends the resolution with the error to report;
/// an answer without a usable `Location` is still an answer, so it is never requested again.
struct RedirectState: Sendable, Hashable {
    /// The link as requested first, for messages.
    let requestedURL: URL
    /// The URL to request now.
    private(set) var current: URL
    /// Redirects followed so far.
    private(set) var count = 0
    let maxRedirects: Int
    let policy: ResolutionPolicy

    init(requestedURL: URL, maxRedirects: Int, policy: ResolutionPolicy) {
        self.requestedURL = requestedURL
        self.current = requestedURL
        self.maxRedirects = maxRedirects
        self.policy = policy
    }

    /// Whether a status is a redirect the resolver follows.
    static func isRedirect(_ statusCode: Int) -> Bool {
        [301, 302, 303, 307, 308].contains(statusCode)
    }

    /// Follows a redirect answer.
    ///
    /// - Parameter response: A 301, 302, 303, 307 or 308 answer to ``current``.
    /// - Returns: The target, now ``current``.
    /// - Throws: ``LinkError/Code/httpStatus`` (no usable `Location`, too many redirects) or
    ///   ``LinkError/Code/hostNotAllowed`` (the policy refuses the target).
    mutating func follow(_ response: TransportResponse) throws(LinkError) -> URL {
        guard let location = response.headerField("Location"), !location.isEmpty,
              let target = URL(string: location, relativeTo: current)?.absoluteURL
        else {
            throw .status(response.statusCode, url: requestedURL, "a redirect without a usable Location")
        }
        count += 1
        if count > maxRedirects {
            throw .status(response.statusCode, url: requestedURL, "more than \(maxRedirects) redirects")
        }
        if let refusal = policy.check(target) { throw .redirectRefused(requestedURL, refusal) }
        current = target
        return target
    }
}
