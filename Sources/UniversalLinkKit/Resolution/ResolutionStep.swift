import Foundation

/// One step of a resolution, for the manager's events (logs and metrics). URLs carry no credentials.
package enum ResolutionStep: Sendable, Hashable {
    /// A request went to the transport (attempt 1, or 2 for the retry; redirects count their own attempts).
    case requestSent(attempt: Int, url: URL)
    /// The transport returned an answer.
    case answered(attempt: Int, statusCode: Int, bytes: Int, duration: Duration, connectionWait: Duration? = nil)
    /// The request is sent again after `after`.
    case retrying(reason: String, after: Duration)
    /// The answer redirected to `to`, which the policy admitted.
    case redirected(to: URL)
    /// The transport failed.
    case requestFailed(attempt: Int, kind: TransportError.Kind)
}
