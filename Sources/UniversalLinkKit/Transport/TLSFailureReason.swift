import Foundation
import Synchronization
internal import _CLibcurl
internal import _LinkKitLocking

/// Words for a failed TLS handshake ("self-signed", "expired on 2026-11-02", "issued for a.example, not
/// b.example"), from OpenSSL's verification result and the certificates the server sent.
///
/// OpenSSL ends a handshake at the first certificate it refuses, before libcurl can read the chain, so the chain
/// is read by a second handshake to the same checked address that verifies nothing, sends no request and closes
/// (libcurl's `CONNECT_ONLY` with its certificate information), within the first one's deadline. When that
/// handshake fails too, or the deadline is too near, OpenSSL's own words are kept.
enum TLSFailureReason {
    /// The reason of `failure` in words.
    ///
    /// - Parameters:
    ///   - failure: The handshake's failure (kind ``TransportError/Kind/tls``).
    ///   - url: The URL requested.
    ///   - host: Its host, as the certificate must name it.
    ///   - pin: The checked addresses the handshake went to.
    ///   - deadline: The request's deadline; the second handshake ends by it.
    static func describe(
        _ failure: TransportError, url: URL, host: String, pin: AddressPin, deadline: ContinuousClock.Instant?
    ) async -> String {
        let openSSL = failure.detail
        if isProtocolRefusal(openSSL) {
            return "the server offers only TLS 1.0/1.1, and TLS 1.2 is the minimum (\(openSSL))"
        }
        let nameMismatch = openSSL.contains("subject name") || openSSL.contains("no alternative certificate")
            || [X509Verification.hostnameMismatch, X509Verification.ipAddressMismatch].contains(failure.verifyResult)
        guard nameMismatch || failure.verifyResult != nil else { return openSSL }
        let end = deadline ?? (.now + .seconds(10))
        guard end - .now > .milliseconds(20) else { return openSSL }
        let chain = await readChain(url: url, pin: pin, deadline: end)
        guard let leaf = chain.first else { return openSSL }
        if nameMismatch {
            return "the certificate is issued for \(leaf.namesText), not \(host)"
        }
        switch failure.verifyResult {
        case X509Verification.selfSignedLeaf:
            return "the certificate (\(leaf.commonName)) is self-signed, which no trusted root vouches for"
        case X509Verification.expired:
            let expired = chain.first { ($0.notAfter ?? .distantFuture) < Date() } ?? leaf
            return "the certificate \(expired.commonName) expired on \(day(expired.notAfter))"
        case X509Verification.notYetValid:
            let early = chain.first { ($0.notBefore ?? .distantPast) > Date() } ?? leaf
            return "the certificate \(early.commonName) is not valid until \(day(early.notBefore))"
        case X509Verification.selfSignedInChain:
            return "the chain ends in the self-signed root \(chain.last?.commonName ?? leaf.issuerName), which is not trusted"
        case X509Verification.unableToGetIssuer, X509Verification.unableToGetIssuerLocally,
            X509Verification.unableToVerifyLeafSignature:
            if chain.dropFirst().contains(where: { $0.subject == leaf.issuer }) {
                return "the chain ends in \(chain.last?.issuerName ?? leaf.issuerName), which is not trusted"
            }
            return "the certificate (\(leaf.commonName)) is issued by \(leaf.issuerName), which is not trusted and was not sent"
        default:
            return openSSL
        }
    }

    /// Whether OpenSSL's words say the server's protocol versions were refused.
    private static func isProtocolRefusal(_ text: String) -> Bool {
        ["unsupported protocol", "alert protocol version", "no protocols available", "tlsv1 alert protocol"]
            .contains { text.localizedCaseInsensitiveContains($0) }
    }

    /// `2026-12-01`, or "an unknown date".
    private static func day(_ date: Date?) -> String {
        guard let date else { return "an unknown date" }
        return date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .current).year().month().day())
    }

    /// The certificates the server sends, read by a handshake that verifies nothing and sends no request; empty
    /// when it fails.
    private static func readChain(url: URL, pin: AddressPin, deadline: ContinuousClock.Instant) async -> [PeerCertificate] {
        let (seconds, attoseconds) = (deadline - .now).components
        let within = max(1_000_000, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let (urlText, connectTo, resolve, allowed) = (url.absoluteString, pin.connectTo, pin.resolve, pin.allowed)
        let text: String? = await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: handshake(
                    url: urlText, connectTo: connectTo, resolve: resolve, allowed: allowed, within: within))
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        return text.map(PeerCertificate.chain(fromCertInfo:)) ?? []
    }

    /// The blocking handshake; its certificate information, or `nil`.
    private static func handshake(url: String, connectTo: String, resolve: String, allowed: String, within: Int64) -> String? {
        guard let transfer = ulk_transfer_create(url, nil, 0, connectTo, resolve, allowed, 0, 1024, 1, within) else { return nil }
        defer { ulk_transfer_free(transfer) }
        let configured = "DEFAULT:@SECLEVEL=0".withCString { ciphers in
            // TLS 1.0 up, any certificate: the point is to read it, whatever it is.
            var options = ulk_tls_options(
                ca_file: nil, verify_peer: 0, verify_host: 0, ssl_version: 4, cipher_list: ciphers, cert_info: 1,
                connect_only: 1)
            return ulk_transfer_set_tls(transfer, &options)
        }
        guard configured == 0, ulk_transfer_perform(transfer) == 0, let info = ulk_transfer_certinfo(transfer) else { return nil }
        defer { ulk_free(info) }
        return String(cString: info)
    }
}
