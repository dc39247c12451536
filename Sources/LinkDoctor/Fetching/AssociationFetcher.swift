import Foundation
import UniversalLinkKit

/// Fetches association files: the one place where the doctor sends a request (resolutions aside, which go
/// through `LinkResolver`).
///
/// Invariant: every fetch is checked against the policy before it is sent, carries one deadline measured on the
/// injected clock, reads at most `maxBodyBytes`, and never follows a redirect (a 3xx comes back as an answer,
/// since the transport contract forbids following it).
struct AssociationFetcher: Sendable {
    /// What one fetch gave.
    enum Outcome: Sendable {
        /// A status line and a body within the cap arrived.
        case answered(TransportResponse)
        /// The body was larger than the cap.
        case tooLarge
        /// The policy refused the URL; nothing was sent.
        case refused(String)
        /// No usable answer: the connection failed, or the deadline passed.
        case failed(String)
    }

    let transport: any LinkTransport
    let clock: LinkClock
    let policy: ResolutionPolicy
    let timeout: Duration

    /// Sends one `GET` and waits at most ``timeout`` for the whole answer.
    ///
    /// - Parameters:
    ///   - url: The file's URL.
    ///   - userAgent: The `User-Agent` to send.
    ///   - maxBodyBytes: The cap; a longer body is ``Outcome/tooLarge``.
    /// - Returns: The outcome; never throws.
    func fetch(_ url: URL, userAgent: String, maxBodyBytes: Int) async -> Outcome {
        if let refusal = policy.check(url) { return .refused(refusal.message) }
        let request = TransportRequest(url: url, headerFields: ["User-Agent": userAgent, "Accept": "*/*"])
        let deadline = clock.now + timeout
        let transport = transport
        let clock = clock
        let timeout = timeout
        return await withTaskGroup(of: Race.self) { group in
            group.addTask {
                do {
                    return .answer(try await transport.send(request, maxBodyBytes: maxBodyBytes))
                } catch {
                    return .error(error)
                }
            }
            group.addTask {
                do {
                    try await clock.sleep(until: deadline)
                    return .deadline
                } catch {
                    return .cancelled
                }
            }
            var result: Outcome = .failed("the fetch was cancelled")
            while let race = await group.next() {
                switch race {
                case .answer(let response):
                    result = response.body.count > maxBodyBytes ? .tooLarge : .answered(response)
                case .error(let error as TransportError) where error.kind == .bodyTooLarge:
                    result = .tooLarge
                case .error(let error):
                    result = .failed(Self.describe(error))
                case .deadline:
                    result = .failed("no answer within \(Self.seconds(timeout)) s")
                case .cancelled:
                    continue
                }
                break
            }
            group.cancelAll()
            return result
        }
    }

    private enum Race: Sendable {
        case answer(TransportResponse)
        case error(any Error)
        case deadline
        case cancelled
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? TransportError { return error.description }
        if error is CancellationError { return "the fetch was cancelled" }
        return String(describing: error)
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = attoseconds / 1_000_000_000_000_000
        return milliseconds == 0 ? "\(seconds)" : String(format: "%.3g", Double(seconds) + Double(milliseconds) / 1000)
    }
}
