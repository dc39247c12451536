import Foundation
import UniversalLinkKit
internal import _LinkKitText

/// Judges a host's HTTPS as Apple's App Transport Security does (what `nscurl --ats-diagnostics` checks on macOS):
/// trust, chain, validity, name, protocol, forward secrecy, key size and signature digest.
///
/// It reads the certificate even where this machine's OpenSSL would refuse the connection: a first handshake
/// verifies nothing and accepts anything (TLS 1.0 up, OpenSSL's security level 0) and collects the chain the
/// server sends; then, at once, a handshake that verifies the chain (with the CA file when one is given), one
/// limited to TLS 1.2, one to TLS 1.3, and one limited to TLS 1.2 with ECDHE suites only. Each is a connection of
/// its own, all within one deadline: at most five connections per host, one when the first handshake fails.
struct TLSInspection: Sendable {
    /// The host and port (`news.example.com`, `127.0.0.1:8443`), as the links name it.
    let domain: String
    let addresses: [String]
    let caFile: String?
    /// The time the whole inspection may take, from `deadline`'s start (for messages).
    let timeout: Duration
    let deadline: ContinuousClock.Instant
    /// The instant validity is judged at.
    let now: Date

    /// What the inspection found.
    struct Report: Sendable {
        var findings: [Finding] = []
        /// A handshake completed: the host's files can be read (without verification if need be).
        var connects = false
        /// The domain check's deadline, which the inspection started: the fetches after it keep it too.
        var deadline: ContinuousClock.Instant
    }

    private var subject: String { "https://\(domain)" }
    private var url: URL { URL(string: "https://\(domain)/") ?? URL(fileURLWithPath: "/") }
    private var host: String {
        if domain.hasPrefix("["), let close = domain.firstIndex(of: "]") { return String(domain[...close]) }
        return domain.split(separator: ":").first.map(String.init) ?? domain
    }

    private func probe(_ settings: TLSProbe.Settings) async -> TLSProbe.Outcome {
        var settings = settings
        settings.handshakeOnly = true
        let probe = TLSProbe(url: url, addresses: addresses, settings: settings, deadline: deadline)
        return (try? await probe.run()) ?? TLSProbe.Outcome(code: 42, message: "the check was cancelled")
    }

    /// Runs the handshakes and judges them.
    func run() async -> Report {
        var first = TLSProbe.Settings.permissive
        first.collectsChain = true
        let read = await probe(first)
        var report = Report(deadline: deadline)
        guard read.succeeded, !read.chain.isEmpty else {
            // Refused or unreachable before any TLS: the fetches report it. Anything else is the handshake's fault.
            if ![6, 7].contains(read.code) {
                report.findings.append(Finding(
                    code: .tlsHandshake, severity: .error, subject: subject,
                    message: "No TLS handshake with \(domain) completed (\(Self.reason(read, within: timeout))), even accepting any "
                        + "certificate and any protocol from TLS 1.0: devices cannot connect either. Check the "
                        + "server's TLS configuration (certificate files, protocols, a proxy or firewall in front)."))
            }
            return report
        }
        report.connects = true
        var verified = TLSProbe.Settings.permissive
        verified.caFile = caFile
        verified.verifiesPeer = true
        var tls12 = TLSProbe.Settings.permissive
        tls12.sslVersion = TLSProbe.Version.tls12 | TLSProbe.Version.max12
        var tls13 = TLSProbe.Settings.permissive
        tls13.sslVersion = TLSProbe.Version.tls13 | TLSProbe.Version.max13
        var forwardSecret = tls12
        forwardSecret.cipherList = "ECDHE:@SECLEVEL=0"
        async let trust = probe(verified)
        async let offers12 = probe(tls12)
        async let offers13 = probe(tls13)
        async let offersECDHE = probe(forwardSecret)
        let chain = read.chain
        report.findings += judgeTrust(await trust, chain: chain)
        report.findings += judgeValidity(chain)
        report.findings += judgeName(chain[0])
        let (has12, has13, hasECDHE) = (await offers12.succeeded, await offers13.succeeded, await offersECDHE.succeeded)
        if !has12 && !has13 {
            report.findings.append(Finding(
                code: .tlsProtocol, severity: .error, subject: subject,
                message: "\(domain) offers only TLS 1.0/1.1, neither TLS 1.2 nor TLS 1.3; App Transport Security "
                    + "requires TLS 1.2 or later, so iOS refuses the connection. Enable TLS 1.2 and 1.3 on the server."))
        } else if has12 && !hasECDHE {
            report.findings.append(Finding(
                code: .tlsNoForwardSecrecy, severity: .error, subject: subject,
                message: "\(domain) offers no ECDHE cipher suite with TLS 1.2 (no forward secrecy); App Transport "
                    + "Security requires one, so iOS refuses the connection over TLS 1.2. Enable ECDHE-ECDSA or "
                    + "ECDHE-RSA suites with AES-GCM or ChaCha20."))
        }
        report.findings += judgeStrength(chain)
        return report
    }

    private func judgeTrust(_ outcome: TLSProbe.Outcome, chain: [PeerCertificate]) -> [Finding] {
        let roots = caFile.map { "the roots in \($0)" } ?? "the system's roots"
        let leaf = chain[0]
        let code = outcome.succeeded ? X509Verification.ok : outcome.verifyResult
        switch code {
        case X509Verification.ok, X509Verification.expired, X509Verification.notYetValid:
            // Dates are judged for every certificate below; an error about them means the chain itself is trusted.
            return []
        case X509Verification.selfSignedLeaf:
            return [Finding(
                code: .tlsUntrusted, severity: .error, subject: subject,
                message: "\(domain) presents a self-signed certificate (\(leaf.commonName)), which is not trusted by "
                    + "\(roots) nor by devices. Serve a certificate from a public certificate authority, with its "
                    + "intermediates; for a staging server with a private CA, give that CA with --ca-file.")]
        case X509Verification.unableToGetIssuer, X509Verification.unableToGetIssuerLocally,
            X509Verification.unableToVerifyLeafSignature:
            let sent = chain.dropFirst().contains { $0.subject == leaf.issuer }
            if !sent {
                return [Finding(
                    code: .tlsIncompleteChain, severity: .error, subject: subject,
                    message: "\(domain)'s certificate (\(leaf.commonName)) is issued by \(leaf.issuerName), which is "
                        + "not trusted and was not sent: the server sends its certificate without the intermediate "
                        + "that signed it. Many clients fail on an incomplete chain (they do not download "
                        + "intermediates): configure the server with the full chain file (the leaf, then its "
                        + "intermediates).")]
            }
            let top = chain.last?.issuerName ?? leaf.issuerName
            return [Finding(
                code: .tlsUntrusted, severity: .error, subject: subject,
                message: "\(domain)'s chain ends in \(top), which is not trusted by \(roots) nor by devices. Serve a "
                    + "certificate from a public certificate authority; for a private CA, give its root with --ca-file.")]
        case X509Verification.selfSignedInChain:
            let top = chain.last?.commonName ?? leaf.issuerName
            return [Finding(
                code: .tlsUntrusted, severity: .error, subject: subject,
                message: "\(domain)'s chain ends in the self-signed root \(top), which is not trusted by \(roots) nor "
                    + "by devices. Serve a certificate from a public certificate authority; for a private CA, give "
                    + "its root with --ca-file.")]
        default:
            let reason = outcome.message.replacingOccurrences(of: "SSL certificate problem: ", with: "")
            return [Finding(
                code: .tlsUntrusted, severity: .error, subject: subject,
                message: "\(domain)'s certificate does not verify against \(roots): \(reason). Fix the certificate "
                    + "or its chain; devices refuse the connection.")]
        }
    }

    private func judgeValidity(_ chain: [PeerCertificate]) -> [Finding] {
        var findings: [Finding] = []
        var seen: Set<PeerCertificate> = []
        let soon = now.addingTimeInterval(30 * 86_400)
        for certificate in chain where seen.insert(certificate).inserted {
            let which = certificate == chain[0] ? "certificate" : "chain's certificate"
            if let notAfter = certificate.notAfter, notAfter < now {
                findings.append(Finding(
                    code: .tlsExpired, severity: .error, subject: subject,
                    message: "\(domain)'s \(which) \(certificate.commonName) expired on \(Self.day(notAfter)); devices "
                        + "refuse the connection. Renew it."))
            } else if let notBefore = certificate.notBefore, notBefore > now {
                findings.append(Finding(
                    code: .tlsNotYetValid, severity: .error, subject: subject,
                    message: "\(domain)'s \(which) \(certificate.commonName) is not valid until \(Self.day(notBefore)); "
                        + "devices refuse the connection until then. Serve a certificate valid now (or fix the clock "
                        + "of the machine that issued it)."))
            } else if let notAfter = certificate.notAfter, notAfter < soon {
                let days = max(0, Int(notAfter.timeIntervalSince(now) / 86_400))
                findings.append(Finding(
                    code: .tlsExpiresSoon, severity: .warning, subject: subject,
                    message: "\(domain)'s \(which) \(certificate.commonName) expires on \(Self.day(notAfter)) (in \(days) "
                        + "day\(days == 1 ? "" : "s")); renew it before then, or every link opens the browser."))
            }
        }
        return findings
    }

    private func judgeName(_ leaf: PeerCertificate) -> [Finding] {
        guard !leaf.matches(host: host) else { return [] }
        return [Finding(
            code: .tlsNameMismatch, severity: .error, subject: subject,
            message: "\(domain)'s certificate is issued for \(leaf.namesText), not \(host); devices refuse the "
                + "connection. Serve a certificate whose subjectAltName includes \(host).")]
    }

    private func judgeStrength(_ chain: [PeerCertificate]) -> [Finding] {
        var findings: [Finding] = []
        var seen: Set<PeerCertificate> = []
        // A root sent along is a trust anchor: its own key and self-signature are not what clients judge.
        for (index, certificate) in chain.enumerated() where seen.insert(certificate).inserted {
            if index > 0, certificate.isSelfIssued { continue }
            if let bits = certificate.keyBits, bits < (certificate.isRSA ? 2048 : 256) {
                findings.append(Finding(
                    code: .tlsWeakKey, severity: .error, subject: subject,
                    message: "\(domain)'s certificate \(certificate.commonName) has a \(bits)-bit "
                        + "\(certificate.isRSA ? "RSA" : "EC") key; App Transport Security requires RSA keys of 2048 "
                        + "bits or EC keys of 256 bits or more. Reissue it with a stronger key."))
            }
            if certificate.hasWeakSignature {
                findings.append(Finding(
                    code: .tlsWeakSignature, severity: .error, subject: subject,
                    message: "\(domain)'s certificate \(certificate.commonName) is signed with "
                        + "\(certificate.signatureAlgorithm); App Transport Security requires SHA-256 or better. "
                        + "Have it reissued with a SHA-256 signature."))
            }
        }
        return findings
    }

    /// Why a handshake failed, in words: a silent server and one that hangs up read differently from libcurl's
    /// messages, which are kept for the rest.
    private static func reason(_ outcome: TLSProbe.Outcome, within timeout: Duration) -> String {
        if outcome.timedOut {
            return "the server accepted the connection but the handshake did not complete within \(timeout.text)"
        }
        let closed = ["SSL_ERROR_SYSCALL", "Connection reset", "Connection died", "Empty reply"]
        if closed.contains(where: outcome.message.contains) || outcome.code == 52 {
            return "the server closed the connection during the handshake"
        }
        return outcome.message
    }

    /// `2026-12-01`.
    private static func day(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .current).year().month().day())
    }
}
