import Foundation
import UniversalLinkKit
import Synchronization
internal import _CLibcurl
internal import _LinkKitLocking

/// One libcurl transfer with the doctor's TLS settings, run to its end on a thread of its own: a handshake alone
/// (to read the chain, the verification result, or whether a protocol or cipher is offered) or a whole `GET`.
///
/// Every transfer opens a fresh connection that is never reused, goes only to the addresses given (libcurl does no
/// lookup of its own), ends by its deadline (libcurl's own timeout), and keeps at most `maxBodyBytes` of a body and
/// `maxHeaderBytes` of a header block, like the resolver's transport.
struct TLSProbe: Sendable {
    /// The TLS settings of a transfer.
    struct Settings: Sendable, Hashable {
        /// PEM roots used instead of the system's; `nil`: the system's.
        var caFile: String?
        /// Whether the chain is verified (the handshake fails when it does not verify).
        var verifiesPeer = true
        /// Whether the name is compared with the certificate's.
        var verifiesHost = true
        /// `CURLOPT_SSLVERSION`: a minimum, or-ed with a maximum; 0: libcurl's default.
        var sslVersion = 0
        /// `CURLOPT_SSL_CIPHER_LIST`; `nil`: libcurl's default.
        var cipherList: String?
        /// Whether the chain the server sent is collected.
        var collectsChain = false
        /// Whether only the handshake is done (no request).
        var handshakeOnly = false

        /// Reads whatever the server presents: any version from TLS 1.0, any cipher, nothing verified (OpenSSL's
        /// security level 0, so that 1024-bit keys and SHA-1 signatures do not end the handshake).
        static var permissive: Self {
            Self(verifiesPeer: false, verifiesHost: false, sslVersion: Version.tls10, cipherList: "DEFAULT:@SECLEVEL=0")
        }
    }

    /// `CURL_SSLVERSION_*` values.
    enum Version {
        static let tls10 = 4
        static let tls12 = 6
        static let tls13 = 7
        static let max12 = 6 << 16
        static let max13 = 7 << 16
    }

    /// What a transfer gave.
    struct Outcome: Sendable {
        /// libcurl's result code (0: success).
        var code: Int32 = 0
        /// libcurl's message for a failure.
        var message = ""
        /// OpenSSL's verification result (`X509_V_ERR_*`), read when the chain was verified.
        var verifyResult = 0
        /// The certificates the server sent, leaf first, when collected.
        var chain: [PeerCertificate] = []
        /// Whether a status line arrived.
        var answered = false
        var status = 0
        /// The answer's header lines, `\r\n` separated.
        var head = ""
        var body = Data()
        var bodyOverCap = false
        var headOverCap = false
        var encodedBody = false

        var succeeded: Bool { code == 0 }
        /// libcurl gave up at its timeout.
        var timedOut: Bool { code == 28 }
    }

    let url: URL
    /// `Name: value` header lines.
    var headerLines: [String] = []
    /// The addresses the connection may go to (canonical text).
    let addresses: [String]
    let settings: Settings
    var maxBodyBytes = 0
    var maxHeaderBytes = 64 * 1024
    /// The instant the transfer ends by.
    let deadline: ContinuousClock.Instant

    /// Runs the transfer on a thread of its own; a cancelled caller is resumed at once (the thread ends by the
    /// deadline, its result dropped).
    func run() async throws -> Outcome {
        let once = OnceBox<Outcome>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                once.set(continuation)
                let thread = Thread { [self] in once.resume(with: .success(perform())) }
                thread.stackSize = 512 * 1024
                thread.start()
            }
        } onCancel: {
            once.resume(with: .failure(CancellationError()))
        }
    }

    /// The blocking transfer.
    private func perform() -> Outcome {
        guard let host = url.host(percentEncoded: false), !host.isEmpty else {
            return Outcome(code: 3, message: "not a URL with a host")
        }
        let scheme = url.scheme?.lowercased() ?? "https"
        let port = url.port ?? (scheme == "http" ? 80 : 443)
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let listed = addresses.map { $0.contains(":") ? "[\($0)]" : $0 }.joined(separator: ",")
        // A literal is its own address; a name is given its checked addresses, so libcurl looks nothing up.
        let resolve = CheckedAddress.parse(bare) != nil ? nil : "\(bare):\(port):\(listed)"
        let pinned = addresses.joined(separator: ",")
        let (seconds, attoseconds) = (deadline - .now).components
        let within = max(1_000_000, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let transfer: UnsafeMutablePointer<ulk_transfer>? = withCStrings(headerLines) { lines, count in
            ulk_transfer_create(
                url.absoluteString, lines, count, nil, resolve, pinned, max(0, maxBodyBytes), max(1024, maxHeaderBytes),
                1, within)
        }
        guard let transfer else { return Outcome(code: 2, message: "libcurl could not set up the transfer") }
        defer { ulk_transfer_free(transfer) }
        let configured = withOptionalCString(settings.caFile) { caFile in
            withOptionalCString(settings.cipherList) { ciphers in
                var options = ulk_tls_options(
                    ca_file: caFile, verify_peer: settings.verifiesPeer ? 1 : 0, verify_host: settings.verifiesHost ? 1 : 0,
                    ssl_version: settings.sslVersion, cipher_list: ciphers, cert_info: settings.collectsChain ? 1 : 0,
                    connect_only: settings.handshakeOnly ? 1 : 0)
                return ulk_transfer_set_tls(transfer, &options)
            }
        }
        guard configured == 0 else { return Outcome(code: 2, message: "libcurl refused the TLS settings") }
        var outcome = Outcome()
        outcome.code = ulk_transfer_perform(transfer)
        ulk_transfer_settle(transfer, outcome.code)
        if outcome.code != 0 {
            let buffer = withUnsafeBytes(of: transfer.pointee.error) { Array($0.prefix { $0 != 0 }) }
            outcome.message = buffer.isEmpty ? String(cString: ulk_strerror(outcome.code)) : String(decoding: buffer, as: UTF8.self)
        }
        if settings.verifiesPeer { outcome.verifyResult = ulk_transfer_verify_result(transfer) }
        if settings.collectsChain, let text = ulk_transfer_certinfo(transfer) {
            outcome.chain = PeerCertificate.chain(fromCertInfo: String(cString: text))
            ulk_free(text)
        }
        let t = transfer.pointee
        outcome.answered = t.got_status != 0
        outcome.status = t.status
        if let head = t.head, t.head_len > 0 {
            outcome.head = String(decoding: UnsafeRawBufferPointer(start: head, count: t.head_len), as: UTF8.self)
        }
        if let body = t.body, t.body_len > 0 { outcome.body = Data(bytes: body, count: t.body_len) }
        outcome.bodyOverCap = t.over_cap != 0
        outcome.headOverCap = t.head_over_cap != 0
        outcome.encodedBody = t.encoded != 0
        return outcome
    }
}

/// A continuation resumed exactly once, by whichever of the thread and the cancellation comes first.
private final class OnceBox<Value: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Value, any Error>?, early: Result<Value, any Error>?)>((nil, nil))

    func set(_ continuation: CheckedContinuation<Value, any Error>) {
        let early = state.withTrackedLock { state -> Result<Value, any Error>? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func resume(with result: Result<Value, any Error>) {
        let continuation = state.withTrackedLock { state -> CheckedContinuation<Value, any Error>? in
            guard let continuation = state.continuation else {
                if state.early == nil { state.early = result }
                return nil
            }
            state.continuation = nil
            state.early = result
            return continuation
        }
        continuation?.resume(with: result)
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

/// Calls `body` with the strings as a C array (and its count), valid during the call.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>, Int32) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!, Int32(strings.count)) }
}
