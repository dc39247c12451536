import Foundation
internal import _LinkKitText

/// Every failure the package meets (transport errors, deadlines, cancellation, refusals, answers that are not
/// answers) becomes a ``LinkError`` here, worded once: what happened to which link, and what the host can do.
/// Links are shown in their redacted form.
extension LinkError {
    /// A failure of one resolution, from what the resolution threw.
    ///
    /// - Parameters:
    ///   - error: What was thrown: a ``LinkError`` (kept), ``DeadlineExceeded``, a ``TransportError`` or a
    ///     cancellation (the manager's shutdown).
    ///   - url: The requested link.
    ///   - allowed: The time the deadline allowed, for the message.
    ///   - maxBodyBytes: The body cap, for the message.
    static func resolution(_ error: any Error, url: URL, allowed: Duration, maxBodyBytes: Int) -> LinkError {
        // A LinkError is already worded: the redacted URL (a URL serialisation) is built only for the others.
        if let error = error as? LinkError { return error }
        let shown = url.redactedString
        switch error {
        case is DeadlineExceeded:
            return timeout(url, allowed: allowed)
        case let error as TransportError:
            return transport(error, shown: shown, maxBodyBytes: maxBodyBytes)
        default:
            return cancelled(url)
        }
    }

    /// A resolution whose deadline passed before it had an answer.
    static func timeout(_ url: URL, allowed: Duration) -> LinkError {
        LinkError(
            code: .timeout,
            message: "No answer for \(url.redactedString) within \(allowed.text); retry later or open the link in a"
                + " browser."
        )
    }

    /// A resolution cut short by the manager's shutdown (its task was cancelled).
    static func cancelled(_ url: URL) -> LinkError {
        LinkError(code: .cancelled, message: "The resolution of \(url.redactedString) was cancelled before it finished.")
    }

    private static func transport(_ error: TransportError, shown: String, maxBodyBytes: Int) -> LinkError {
        switch error.kind {
        case .timedOut:
            LinkError(
                code: .timeout,
                message: "The transport gave up waiting for \(shown) (\(error.description));"
                    + " retry later or open the link in a browser.",
                underlyingError: error
            )
        case .bodyTooLarge:
            LinkError(
                code: .responseTooLarge,
                message: "The answer for \(shown) is larger than \(maxBodyBytes) bytes;"
                    + " it is not a Response Handler answer. Open the link in a browser.",
                underlyingError: error
            )
        case .headersTooLarge:
            LinkError(
                code: .responseTooLarge,
                message: "The answer for \(shown) has a header block over the transport's cap (\(error.detail));"
                    + " it is not a Response Handler answer. Open the link in a browser.",
                underlyingError: error
            )
        case .addressNotAllowed:
            LinkError(
                code: .hostNotAllowed,
                message: "Refused to resolve \(shown): \(error.detail); nothing was sent.",
                underlyingError: error
            )
        case .tls:
            LinkError(
                code: .tls,
                message: "The TLS handshake for \(shown) failed: \(error.detail). Nothing was sent, and retrying does"
                    + " not help: the server's certificate or TLS set-up must be fixed. Open the link in a browser;"
                    + " for a private CA, trust its roots (CurlTransport.Configuration.caFile, --ca-file).",
                underlyingError: error
            )
        case .encodedBody:
            LinkError(
                code: .invalidResponse,
                message: "The answer for \(shown) came compressed though none was asked for; it was not read."
                    + " Open the link in a browser.",
                underlyingError: error
            )
        default:
            LinkError(
                code: .network,
                message: "The request for \(shown) failed (\(error.description)); retry later.",
                underlyingError: error
            )
        }
    }

    /// An answer that ends the resolution with its status: an error status, a redirect that cannot be followed.
    static func status(_ code: Int, url: URL, _ what: String) -> LinkError {
        LinkError(
            code: .httpStatus,
            message: "The server answered \(url.redactedString) with \(what); open the link in a browser instead.",
            statusCode: code
        )
    }

    /// A redirect to a URL the policy refuses.
    static func redirectRefused(_ url: URL, _ refusal: LinkError) -> LinkError {
        LinkError(
            code: .hostNotAllowed,
            message: "The answer for \(url.redactedString) redirects to a URL the policy refuses. " + refusal.message
        )
    }

    /// A server call on a link that is not a pub-web app link.
    static func notPubWebLink(_ url: URL, appLinkPaths: String) -> LinkError {
        LinkError(
            code: .notPubWebLink,
            message: "\(url.redactedString) is not a pub-web app link (\(appLinkPaths) on an http(s) host):"
                + " nothing was requested. Open it as it is."
        )
    }

    /// A link handed in after shutdown began.
    static func shuttingDown(_ url: URL) -> LinkError {
        LinkError(
            code: .shuttingDown,
            message: "The link manager is shutting down and took no new link (\(url.redactedString));"
                + " nothing was requested. Send the request to another instance."
        )
    }

    /// A caller that stopped waiting for a shared resolution because its task was cancelled.
    static func waitCancelled(_ url: URL) -> LinkError {
        LinkError(
            code: .cancelled,
            message: "Stopped waiting for \(url.redactedString): the calling task was cancelled."
                + " The resolution goes on for the other callers and its notification is still posted."
        )
    }

    /// A caller whose own deadline passed while it waited for a shared resolution.
    static func waitTimedOut(_ url: URL) -> LinkError {
        LinkError(
            code: .timeout,
            message: "No result for \(url.redactedString) within this call's deadline;"
                + " the resolution goes on for the other callers. Retry later or open the link in a browser."
        )
    }

    /// The shared claim store failed and the policy is to reject: nothing was sent.
    static func claimStoreUnavailable(_ url: URL, _ error: any Error) -> LinkError {
        LinkError(
            code: .claimStoreUnavailable,
            message: "The link \(url.redactedString) was not resolved: the shared claim store failed (\(error)); retry later.",
            underlyingError: error
        )
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
