import Foundation

/// Sends one HTTP `GET` for the resolver and returns the answer, without following redirects.
///
/// A ``LinkManager`` creates its own by default: ``CurlTransport`` on Linux, `URLSessionTransport` on Apple
/// platforms. Tests and adapters inject their own, so the resolution is exercised without a network.
///
/// Contract:
/// - Never follow redirects: return the 3xx answer; the resolver checks each redirect against its policy.
/// - Stop receiving once the body exceeds `maxBodyBytes` and throw ``TransportError/Kind/bodyTooLarge``.
/// - Throw ``TransportError/Kind/noAnswer`` only when no status line arrived (the only transport failure the
///   resolver retries), ``TransportError/Kind/failedAfterAnswer`` when one did, and
///   ``TransportError/Kind/timedOut`` when a timeout of the transport's own fired (not retried), and
///   ``TransportError/Kind/tls`` when the TLS handshake failed after the server sent TLS data (a certificate or
///   protocol problem: not retried, and worded so that a person sees why).
/// - Honour task cancellation promptly: at the resolver's deadline the request's task is cancelled. The resolver
///   answers its callers at the deadline whatever the transport does, but a transport that ignores the
///   cancellation keeps working for nobody.
/// - Never start a request once its ``TransportRequest/deadline`` has passed (a request waiting for a connection
///   slot included): throw ``TransportError/Kind/noAnswer`` instead; nothing was sent.
/// - A transport that connects itself should check the addresses it connects to
///   (``TransportRequest/allowsLocalAddresses``) and open a fresh connection when
///   ``TransportRequest/allowsReusedConnection`` is off.
public protocol LinkTransport: Sendable {
    /// Sends a request.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - maxBodyBytes: The largest body to accept.
    /// - Returns: The answer, with its whole body.
    /// - Throws: ``TransportError``, or `CancellationError` when cancelled.
    func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse

    /// Releases the transport's connections, threads and session; sends after it fail at once.
    ///
    /// A ``LinkManager`` calls it from ``LinkManager/shutdown(gracePeriod:)`` on the transport it created itself,
    /// never on one it was given (that one may be shared). The default does nothing.
    func shutdown()
}

extension LinkTransport {
    /// Does nothing: a transport without resources of its own has nothing to release.
    public func shutdown() {}
}
