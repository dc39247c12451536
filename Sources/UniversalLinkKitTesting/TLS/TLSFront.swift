import Foundation
import Synchronization
internal import _COpenSSL
internal import _LinkKitLocking

/// A real TLS server on 127.0.0.1 in front of a plain HTTP/1.1 server (``ResponseHandlerStub``,
/// `AssociationFileServer`): it terminates TLS on its own port and pumps the bytes to and from the upstream's.
///
/// Each connection gets its own thread (blocking I/O stays off the Swift concurrency pool) and its own upstream
/// connection, opened after the handshake. The front presents a ``TestPKI`` certificate, with or without its
/// intermediate (``Configuration/sendsIntermediate``), and with ``Configuration/offersHTTP2`` it speaks HTTP/2 to a
/// client that asks for it by ALPN. It counts completed handshakes (``handshakeCount``), so a test can assert that a
/// client reuses its connections.
///
/// ```swift
/// // snippet: skip
/// let pki = try TestPKI()
/// let stub = try ResponseHandlerStub()
/// let front = try TLSFront(upstream: stub, configuration: .init(certificate: try pki.issue(.clean)))
/// defer { front.shutdown(); stub.shutdown() }
/// // request front.url("/pub/acc?_ri_=1"), trusting pki.rootFile
/// #expect(front.handshakeCount <= 16)
/// ```
public final class TLSFront: Sendable {
    /// The port TLS is served on.
    public let port: UInt16
    /// What the front was started with.
    package let configuration: Configuration
    /// The C server, as a bit pattern; freed when the front is released (stopping leaves its counters readable).
    private let server: UInt

    /// Starts a front for the plain HTTP server on `upstreamPort` of 127.0.0.1.
    ///
    /// - Parameters:
    ///   - upstreamPort: The plain server's port.
    ///   - configuration: Certificate, protocols, ciphers and behaviour.
    /// - Throws: ``TLSTestError`` when OpenSSL refuses a setting or the port cannot be opened.
    package init(upstreamPort: UInt16, configuration: Configuration) throws(TLSTestError) {
        let chain = configuration.chainFile
            ?? (configuration.sendsIntermediate ? configuration.certificate.chainFile : configuration.certificate.leafFile)
        var error = [CChar](repeating: 0, count: 512)
        let started = chain.withCString { chain in
            configuration.certificate.keyFile.withCString { key in
                withOptionalCString(configuration.cipherList) { ciphers in
                    withOptionalCString(configuration.tls13CipherSuites) { suites in
                        var settings = ulk_tls_server_config()
                        settings.chain_file = chain
                        settings.key_file = key
                        settings.upstream_port = Int32(upstreamPort)
                        settings.min_version = configuration.minimumVersion?.rawValue ?? 0
                        settings.max_version = configuration.maximumVersion?.rawValue ?? 0
                        settings.cipher_list = ciphers
                        settings.ciphersuites = suites
                        settings.security_level = Int32(configuration.securityLevel)
                        settings.offers_http2 = configuration.offersHTTP2 ? 1 : 0
                        settings.max_streams = Int32(configuration.maximumHTTP2Streams)
                        switch configuration.behavior {
                        case .honest: settings.behaviour = Int32(ULK_TLS_NORMAL)
                        case .silent: settings.behaviour = Int32(ULK_TLS_SILENT)
                        case .closeAfterFirstMessage: settings.behaviour = Int32(ULK_TLS_CLOSE_AFTER_FIRST_MESSAGE)
                        case .closeMidBody(let bytes):
                            settings.behaviour = Int32(ULK_TLS_CLOSE_MID_BODY)
                            settings.truncate_after = Int64(max(0, bytes))
                        }
                        return ulk_tls_server_start(&settings, &error, error.count)
                    }
                }
            }
        }
        guard let started else { throw TLSTestError(TLSTestError.text(error)) }
        server = UInt(bitPattern: started)
        port = UInt16(ulk_tls_server_port(started))
        self.configuration = configuration
    }

    /// Starts a front for `upstream`.
    ///
    /// - Parameters:
    ///   - upstream: The stub whose port the bytes go to.
    ///   - configuration: Certificate, protocols, ciphers and behaviour.
    /// - Throws: ``TLSTestError`` when OpenSSL refuses a setting or the port cannot be opened.
    public convenience init(upstream: ResponseHandlerStub, configuration: Configuration) throws(TLSTestError) {
        try self.init(upstreamPort: UInt16(upstream.port), configuration: configuration)
    }

    deinit {
        ulk_tls_server_free(handle)
    }

    private var handle: OpaquePointer { OpaquePointer(bitPattern: server)! }  // Set once from a non-nil pointer.

    /// `https://127.0.0.1:PORT`.
    package var baseURL: URL {
        URL(string: "https://127.0.0.1:\(port)")!  // A literal with a number: always a URL.
    }

    /// `baseURL` followed by `pathAndQuery` (`/pub/acc?_ri_=1`).
    ///
    /// - Parameter pathAndQuery: The path, with its query if any.
    /// - Returns: The URL.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: baseURL.absoluteString + pathAndQuery) ?? baseURL
    }

    /// TCP connections accepted so far.
    package var connectionCount: Int { Int(ulk_tls_server_count(handle, Int32(ULK_TLS_CONNECTIONS))) }
    /// Handshakes completed so far.
    public var handshakeCount: Int { Int(ulk_tls_server_count(handle, Int32(ULK_TLS_HANDSHAKES))) }
    /// Handshakes that failed or were abandoned so far (a silent or hostile connection counts when it ends).
    package var failedHandshakeCount: Int { Int(ulk_tls_server_count(handle, Int32(ULK_TLS_FAILED_HANDSHAKES))) }
    /// Connections whose thread has finished with them.
    package var closedCount: Int { Int(ulk_tls_server_count(handle, Int32(ULK_TLS_CLOSED))) }
    /// Handshakes that resumed an earlier TLS session.
    package var resumedHandshakeCount: Int { Int(ulk_tls_server_count(handle, Int32(ULK_TLS_RESUMED))) }
    /// Connections that chose HTTP/2 by ALPN.
    package var http2ConnectionCount: Int { Int(ulk_tls_server_count(handle, Int32(ULK_TLS_HTTP2_CONNECTIONS))) }
    /// HTTP/2 requests (streams) received.
    package var http2StreamCount: Int { Int(ulk_tls_server_count(handle, Int32(ULK_TLS_HTTP2_STREAMS))) }

    /// A counter ``wait(until:reaches:timeout:)`` waits on.
    package enum Counter: Sendable {
        /// ``connectionCount``.
        case connections
        /// ``handshakeCount``.
        case handshakes
        /// ``failedHandshakeCount``.
        case failedHandshakes
        /// ``closedCount``.
        case closed
        /// ``http2StreamCount``.
        case http2Streams
    }

    /// Waits, on a thread of its own, until `counter` reaches `value`: woken by the connection that moves it.
    ///
    /// - Parameters:
    ///   - counter: The counter.
    ///   - value: The value to reach.
    ///   - timeout: The most to wait.
    /// - Returns: The counter's value when the wait ended (at least `value` unless it timed out or the front
    ///   stopped).
    package func wait(until counter: Counter, reaches value: Int, timeout: Duration = .seconds(300)) async -> Int {
        let which: Int32 = switch counter {
        case .connections: Int32(ULK_TLS_CONNECTIONS)
        case .handshakes: Int32(ULK_TLS_HANDSHAKES)
        case .failedHandshakes: Int32(ULK_TLS_FAILED_HANDSHAKES)
        case .closed: Int32(ULK_TLS_CLOSED)
        case .http2Streams: Int32(ULK_TLS_HTTP2_STREAMS)
        }
        let milliseconds = Int(timeout.components.seconds) * 1000 + Int(timeout.components.attoseconds / 1_000_000_000_000_000)
        return await withCheckedContinuation { continuation in
            let thread = Thread { [self] in
                continuation.resume(returning: Int(ulk_tls_server_wait(handle, which, value, milliseconds)))
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    /// Stops accepting, ends every connection and waits for their threads; the counters stay readable.
    public func shutdown() {
        ulk_tls_server_stop(handle)
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
