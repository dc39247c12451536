import Foundation
import UniversalLinkKit
internal import _LinkKitText

/// Fetches association files: the one place where the doctor sends a request (resolutions aside, which go
/// through `LinkResolver`).
///
/// Invariant: every fetch is checked against the policy before it is sent, carries one deadline measured on the
/// injected clock, reads at most `maxBodyBytes`, and never follows a redirect (a 3xx comes back as an answer,
/// since the transport contract forbids following it). A request that got no answer at all (no status line:
/// typically a pooled keep-alive connection the server had closed without `Connection: close`) is sent once more,
/// on a fresh connection, within the same deadline: nothing was answered, so nothing is sent twice, and a server
/// that merely closes idle connections is not reported as blocking anyone.
struct AssociationFetcher: Sendable {
    /// What one fetch gave.
    enum Outcome: Sendable {
        /// A status line and a body within the cap arrived.
        case answered(TransportResponse)
        /// The body was larger than the cap.
        case tooLarge(Answer.Oversize)
        /// The policy refused the URL; nothing was sent.
        case refused(String)
        /// No usable answer: the connection failed, or the deadline passed.
        case failed(String)
    }

    let transport: any LinkTransport
    let clock: LinkClock
    let policy: ResolutionPolicy
    /// The longest a fetch waits: the doctor's timeout, or what is left of the domain check's deadline.
    var timeout: Duration

    /// Sends one `GET` and waits at most ``timeout`` (or `limit`, when shorter) for the whole answer.
    ///
    /// - Parameters:
    ///   - url: The file's URL.
    ///   - userAgent: The `User-Agent` to send.
    ///   - maxBodyBytes: The cap; a longer body is ``Outcome/tooLarge(_:)``.
    ///   - limit: A shorter wait of the fetcher being imitated (Android's verifier: 5 s), if any.
    /// - Returns: The outcome; never throws.
    func fetch(_ url: URL, userAgent: String, maxBodyBytes: Int, limit: Duration? = nil) async -> Outcome {
        let wait = limit.map { min($0, timeout) } ?? timeout
        if let refusal = policy.check(url) { return .refused(refusal.message) }
        guard wait > .zero else { return .failed("no time left of the check's deadline") }
        let request = TransportRequest(
            url: url, headerFields: ["User-Agent": userAgent, "Accept": "*/*"],
            allowsLocalAddresses: policy.allowsLocalHosts)
        let transport = transport
        do {
            // The package's one deadline mechanism, on the injected clock, whatever the transport.
            let response = try await withDeadline(clock.now + wait, clock: clock) {
                do {
                    return try await transport.send(request, maxBodyBytes: maxBodyBytes)
                } catch let error as TransportError where error.kind == .noAnswer {
                    var fresh = request
                    fresh.allowsReusedConnection = false
                    return try await transport.send(fresh, maxBodyBytes: maxBodyBytes)
                }
            }
            return response.body.count > maxBodyBytes ? .tooLarge(.body) : .answered(response)
        } catch let error as TransportError where error.kind == .bodyTooLarge {
            return .tooLarge(.body)
        } catch let error as TransportError where error.kind == .headersTooLarge {
            return .tooLarge(.headerBlock)
        } catch is DeadlineExceeded {
            return .failed("no answer within \(wait.text)")
        } catch {
            return .failed(Self.describe(error))
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? TransportError { return error.description }
        if error is CancellationError { return "the fetch was cancelled" }
        return String(describing: error)
    }
}
