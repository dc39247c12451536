import Foundation
import Synchronization
internal import _CLibcurl
internal import _LinkKitLocking

/// The Linux ``LinkTransport``: libcurl itself, loaded at run time, driven by one thread for every request.
///
/// FoundationNetworking loads `libcurl.so.4` on every Linux toolchain; this transport loads the same library
/// (no headers, no -dev package) and uses it directly, which gives what `URLSession` cannot promise:
/// - **Memory bounded by the cap**: the body is kept only while it fits `maxBodyBytes`; the first byte over it
///   (or a `Content-Length` over it) stops the transfer and closes the connection. Header blocks are capped
///   too (64 KiB). No `Accept-Encoding` is sent and nothing is inflated: a 2xx answer
///   that arrives with a `Content-Encoding` anyway is refused unread (`encodedBody`).
///   Only a 2xx body is read; any other answer ends at its headers.
/// - **Each call sends the request at most once**: libcurl silently re-sends a request when a reused keep-alive
///   connection dies before an answer; its pre-request callback counts the requests and refuses the second
///   (the call then throws ``TransportError/Kind/noAnswer``, and the resolver's single retry, sent with
///   ``TransportRequest/allowsReusedConnection`` off, is the second and last request). With a libcurl older than
///   7.80 (no pre-request callback) every request opens a fresh connection instead, so it cannot be re-sent.
/// - **The address checked is the address connected to**: the host name is resolved once; every address must pass the check (unless ``TransportRequest/allowsLocalAddresses``), and
///   the connection is pinned to those addresses (all of them, so that a name with an unreachable IPv6 address
///   still connects over IPv4), then verified before the request is sent. libcurl does no lookup of its own.
/// - **No proxy**: `http_proxy`, `HTTPS_PROXY`, `ALL_PROXY` and the like are ignored, since through a proxy the
///   connection would go to the proxy and the proxy would look the name up again, past the check.
/// - **Nothing is sent after its deadline**: a request still waiting for a connection slot when its
///   ``TransportRequest/deadline`` passes is dropped unsent (libcurl 7.80+), so no click is counted for a caller
///   that was already answered.
/// - **Every request ends by its deadline**, even without being cancelled: the name lookup, the connection, the
///   answer and the body together (``TransportError/Kind/timedOut``).
/// - **HTTPS**: TLS 1.2 at least; the system's roots, or those of ``Configuration/caFile`` instead. A certificate
///   or protocol failure is ``TransportError/Kind/tls`` (never retried: no request was sent, and the server answers
///   the same way every time), its detail naming the reason in words ("self-signed", "expired on 2026-11-02",
///   "issued for other.example.net, not news.example.com"), read from the certificate by a second handshake that
///   sends no request. A connection refused, reset or closed during the handshake is
///   ``TransportError/Kind/noAnswer`` (retried once by the resolver); a handshake that never ends fails at the
///   deadline.
/// - **Connections and TLS sessions are reused**: keep-alive connections stay pooled, a new connection resumes a
///   TLS session an earlier one stored, and a server that offers HTTP/2 (ALPN) carries a host's requests as streams
///   of one connection. At most ``Configuration/maximumConcurrentRequestsPerHost`` requests to a host are in
///   progress at once (connections over HTTP/1.1, streams over HTTP/2); the others wait in order.
/// - **No click for a caller already answered**: a request starts only while its deadline leaves at least what
///   answers from its host currently take (the 90th percentile of its recent answers, none older than 30 s);
///   otherwise it ends at once, unsent, as ``TransportError/Kind/timedOut``.
/// - `GET` only, no redirect is followed, only `http` and `https`, no signals; HTTP/1.1, or HTTP/2 over TLS.
/// - Cancellation resumes the caller at once; the thread drops the transfer.
///
/// If libcurl cannot be loaded, ``make(configuration:)`` returns `nil`; a ``LinkManager`` then falls back to
/// `URLSessionTransport`. Create one transport and share it: connections are kept alive.
public final class CurlTransport: LinkTransport {
    /// Transport settings.
    public struct Configuration: Sendable, Hashable {
        /// The most requests in progress to one host at once: connections over HTTP/1.1, streams over HTTP/2
        /// (one connection carries them all). A request beyond waits for a slot, in order, and is dropped unsent
        /// when its deadline passes first, or no longer leaves what the host's answers currently take. Default 16.
        public var maximumConcurrentRequestsPerHost: Int
        /// The largest header block accepted, all header lines of an answer together; a single line longer than
        /// libcurl's own limit (100 KiB) is refused as over the cap too. Default 64 KiB.
        package var maxHeaderBytes = 64 * 1024
        /// How long the addresses a host name resolved to are used before the name is looked up again; zero looks
        /// every request's name up. Default 60 s, as libcurl's own DNS cache (which this transport does not use,
        /// since it checks the addresses itself): a lookup is a network round trip. Every request checks the addresses again, kept or not; failed lookups and
        /// answers that are not addresses are not kept, nor names outside ASCII, and at most 256 names are.
        public var nameCacheLifetime: Duration
        /// A PEM file of root certificates trusted instead of the system's (libcurl's CA bundle and CA directory
        /// both replaced): a staging Response Handler or a corporate TLS proxy with a private CA. `nil` (the
        /// default): the system's roots. The file is read when a connection first needs it, and kept for the
        /// transport's life.
        public var caFile: String?
        /// Whether HTTP/2 is offered (ALPN) on `https` connections: a server that accepts it carries every
        /// request to it over one connection, as streams. Default `true`; `false` keeps HTTP/1.1.
        package var usesHTTP2 = true

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - maximumConcurrentRequestsPerHost: Requests in progress per host (connections or HTTP/2 streams).
        ///   - nameCacheLifetime: How long a name's addresses are used; zero looks every name up.
        ///   - caFile: A PEM file of roots trusted instead of the system's; `nil` for the system's.
        public init(
            maximumConcurrentRequestsPerHost: Int = 16, nameCacheLifetime: Duration = .seconds(60), caFile: String? = nil
        ) {
            self.maximumConcurrentRequestsPerHost = maximumConcurrentRequestsPerHost
            self.nameCacheLifetime = nameCacheLifetime
            self.caFile = caFile
        }
    }

    private let configuration: Configuration
    private let multi: CurlMulti
    private let nameResolver: NameResolver
    private let names: NameCache

    private init(configuration: Configuration, multi: CurlMulti, nameResolver: NameResolver) {
        self.configuration = configuration
        self.multi = multi
        self.nameResolver = nameResolver
        names = NameCache(lifetime: configuration.nameCacheLifetime)
    }

    /// Creates a transport, or returns `nil` when libcurl (7.68 or later) cannot be loaded.
    ///
    /// - Parameter configuration: Transport settings.
    /// - Returns: The transport, or `nil` without a usable libcurl.
    public static func make(configuration: Configuration = .init()) -> CurlTransport? {
        make(configuration: configuration, nameResolver: .system)
    }

    /// A transport that resolves host names with `nameResolver` (tests map names to the loopback stub), and keeps
    /// its stream queue and latency figures on `clock` (a test's clock decides when a queued request is too late).
    package static func make(
        configuration: Configuration = .init(), nameResolver: NameResolver, clock: LinkClock = .continuous
    ) -> CurlTransport? {
        guard let multi = CurlMulti(streamsPerHost: configuration.maximumConcurrentRequestsPerHost, clock: clock) else { return nil }
        return CurlTransport(configuration: configuration, multi: multi, nameResolver: nameResolver)
    }

    deinit {
        multi.shutdown()
    }

    /// Stops the transport's thread and closes its connections; later sends fail with `CancellationError`.
    public func shutdown() {
        multi.shutdown()
    }

    /// Sends the request; see the type's documentation for the guarantees.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - maxBodyBytes: The largest body accepted.
    /// - Returns: The answer.
    /// - Throws: ``TransportError`` or `CancellationError`.
    public func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = request.url.host(percentEncoded: false), !host.isEmpty
        else { throw TransportError(.noAnswer, detail: "not an http(s) URL with a host") }
        let addresses = try await CheckedAddress.resolve(
            host, with: nameResolver, allowsLocalAddresses: request.allowsLocalAddresses, deadline: request.deadline,
            cache: names)
        try Task.checkCancellation()
        let port = request.url.port ?? (scheme == "https" ? 443 : 80)
        let pin = AddressPin(addresses, port: port)
        let hostKey = "\(host.lowercased()):\(port)"
        // The deadline as time left: libcurl's side keeps its own monotonic clock, the stream queue the transport's.
        var sendWithin: Int64 = -1
        var deadline: ContinuousClock.Instant?
        if let requestDeadline = request.deadline {
            let left = requestDeadline - .now
            let (seconds, attoseconds) = left.components
            sendWithin = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            let now = multi.clock.now
            deadline = now + left
            // Refused at once when the host's answers take longer than the time left: nothing is queued.
            if let refusal = multi.latency.refusal(host: hostKey, left: left, at: now) {
                throw TransportError(.timedOut, detail: refusal)
            }
        }
        let transfer = withHeaderLines(request.headerFields) { lines, count in
            ulk_transfer_create(
                request.url.absoluteString, lines, count, pin.connectTo, pin.resolve, pin.allowed,
                max(0, maxBodyBytes), max(1024, configuration.maxHeaderBytes), request.allowsReusedConnection ? 0 : 1,
                sendWithin)
        }
        guard let transfer else { throw TransportError(.noAnswer, detail: "libcurl could not set up the request") }
        let trusted = withOptionalCString(configuration.caFile) { caFile in
            // Over plain http a waiting transfer would wait for the first answer to learn there is no multiplexing.
            ulk_transfer_set_trust(transfer, caFile, configuration.usesHTTP2 && scheme == "https" ? 1 : 0)
        }
        guard trusted == 0 else {
            ulk_transfer_free(transfer)
            throw TransportError(.noAnswer, detail: "libcurl refused the TLS settings")
        }
        do {
            return try await multi.perform(transfer, host: hostKey, deadline: deadline)
        } catch let error as TransportError {
            if error.kind == .timedOut, let deadline = request.deadline, ContinuousClock.now < deadline,
               !error.detail.hasPrefix("not sent") {
                // libcurl counts its timeout in whole milliseconds from a start time it may have read a little
                // early, so it can end a transfer a fraction of a millisecond before the deadline (seen: 0.4 ms).
                // The deadline is the contract: nothing comes back before it, so no caller takes the early end for
                // time still left.
                try await Task.sleep(until: deadline, clock: .continuous)
            }
            // libcurl's messages name the made-up name it connected to: name the host and its addresses instead.
            var named = error
            named.detail = error.detail.replacingOccurrences(of: pin.name, with: "\(host) (\(pin.allowed))")
            if error.kind == .tls {
                let reason = await TLSFailureReason.describe(
                    named, url: request.url, host: host, pin: pin, deadline: request.deadline)
                throw TransportError(.tls, detail: reason)
            }
            throw named
        }
    }
}

extension CurlTransport {
    /// Requests whose caller is still waiting.
    var pendingCount: Int { multi.waitingCount }
}

/// Calls `body` with the fields as a C array of `Name: value` C strings and their count, valid during the call.
private func withHeaderLines<R>(_ fields: [String: String], _ body: (UnsafePointer<UnsafePointer<CChar>?>, Int32) -> R) -> R {
    var text: [UInt8] = []
    var starts: [Int] = []
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
        starts.append(text.count)
        text += "\(name): \(value)".utf8
        text.append(0)
    }
    return text.withUnsafeBytes { text in
        let base = text.baseAddress?.assumingMemoryBound(to: CChar.self)
        // A trailing NULL, so that the array is never empty and always has a base address.
        let lines = starts.map { UnsafePointer(base! + $0) } + [nil]
        return lines.withUnsafeBufferPointer { body($0.baseAddress!, Int32(starts.count)) }
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
