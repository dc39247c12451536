import Foundation
import Testing
import UniversalLinkKitTesting

/// `linux-host doctor domain` as Apple's App Transport Security check, run as a user runs it against a domain and
/// Apple's CDN served over real TLS on loopback, with certificates made for the test.
struct DoctorTLSCommandTests {
    /// The domain and the CDN as stubs behind TLS fronts; the CDN's front is always clean.
    final class Domain: Sendable {
        let pki: TestPKI
        let origin: ResponseHandlerStub
        let cdn: ResponseHandlerStub
        let front: TLSFront
        let cdnFront: TLSFront

        init(
            _ spec: CertificateSpec = .clean, chainOfAtLeast paddedBytes: Int? = nil,
            _ configure: (inout TLSFront.Configuration) -> Void = { _ in }
        ) throws {
            pki = try TestPKI()
            origin = try ResponseHandlerStub()
            cdn = try ResponseHandlerStub()
            var configuration = TLSFront.Configuration(certificate: try pki.issue(spec))
            if let paddedBytes {
                configuration.chainFile = try pki.paddedChain(of: configuration.certificate, toAtLeast: paddedBytes)
            }
            configure(&configuration)
            front = try TLSFront(upstream: origin, configuration: configuration)
            cdnFront = try TLSFront(upstream: cdn, configuration: .init(certificate: try pki.issue(.clean)))
            AssociationFileServer(on: origin).serve(DoctorCommandTests.aasa, at: AssociationFileServer.wellKnownPath)
            AssociationFileServer(on: cdn).serve(DoctorCommandTests.aasa, at: AssociationFileServer.cdnPath(for: domain))
        }

        deinit {
            for front in [front, cdnFront] { front.shutdown() }
            for stub in [origin, cdn] { stub.shutdown() }
        }

        var domain: String { "127.0.0.1:\(front.port)" }

        func arguments(caFile: Bool = true, timeout: String = "30", _ extra: [String] = []) -> [String] {
            ["doctor", "domain", domain, "--app", DoctorCommandTests.app, "--responsys", "--apple-cdn",
             cdnFront.baseURL.absoluteString, "--allow-loopback", "--timeout", timeout]
                + (caFile ? ["--ca-file", pki.rootFile] : []) + extra
        }
    }

    @Test func aCleanDomainOverTLSWithThePrivateRootTrustedHasNoFindings() async throws {
        let domain = try Domain()
        let result = try await HostProcess.run(domain.arguments())
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "0 errors, 0 warnings\n")
        #expect(domain.origin.requestCount(for: AssociationFileServer.wellKnownPath) == 2)
    }

    /// Each leaf that App Transport Security refuses gets its own finding, and the file is still fetched and
    /// judged (a clean file: nothing else is reported).
    @Test(arguments: [
        (CertificateSpec.expired, "tls.expired", "expired on"),
        (.notYetValid, "tls.notYetValid", "is not valid until"),
        (.forOtherNames(["other.example.net"]), "tls.nameMismatch", "issued for other.example.net, not 127.0.0.1"),
        (.rsa1024, "tls.weakKey", "1024-bit RSA key"),
        (.sha1Signed, "tls.weakSignature", "signed with ecdsa-with-SHA1"),
        (.selfSigned, "tls.untrusted", "self-signed certificate (ULK test leaf)"),
    ])
    func aBadLeafIsItsFindingAndTheFileIsStillJudged(_ spec: CertificateSpec, _ code: String, _ words: String) async throws {
        let domain = try Domain(spec)
        let result = try await HostProcess.run(domain.arguments(["--json"]))
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let lines = try result.jsonLines()
        #expect(lines.map { $0["code"] as? String } == [code], "\(result.stdout)")
        let message = try #require(lines.first?["message"] as? String)
        #expect(message.contains(words), "\(message)")
        #expect(lines.first?["subject"] as? String == "https://\(domain.domain)")
        #expect(domain.origin.requestCount(for: AssociationFileServer.wellKnownPath) == 2)
    }

    @Test func aLeafExpiringWithinThirtyDaysIsAWarningWithItsDate() async throws {
        let domain = try Domain(.expiring(inDays: 10))
        let result = try await HostProcess.run(domain.arguments())
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let day = domain.front.configuration.certificate.notAfter
            .formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).year().month().day())
        #expect(result.stdout.contains("  warning: tls.expiresSoon: 127.0.0.1:\(domain.front.port)'s certificate ULK test leaf expires on \(day) (in 9 days)"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("0 errors, 1 warning\n"))
    }

    @Test func aChainWithoutItsIntermediateIsIncomplete() async throws {
        let domain = try Domain { $0.sendsIntermediate = false }
        let result = try await HostProcess.run(domain.arguments(["--json"]))
        let lines = try result.jsonLines()
        #expect(lines.map { $0["code"] as? String } == ["tls.incompleteChain"], "\(result.stdout)")
        #expect((lines.first?["message"] as? String)?.contains("issued by ULK Test Intermediate CA, which is not trusted and was not sent") == true)
    }

    @Test func withoutTheCAFileThePrivateRootIsUntrustedYetTheFileIsJudged() async throws {
        let domain = try Domain()
        let result = try await HostProcess.run(domain.arguments(caFile: false, ["--json"]))
        let codes = try result.jsonLines().compactMap { $0["code"] as? String }
        #expect(codes.first == "tls.untrusted", "\(result.stdout)")
        #expect(!codes.contains("aasa.unreachable"))
        #expect(domain.origin.requestCount(for: AssociationFileServer.wellKnownPath) == 2)
    }

    @Test func aServerOfferingOnlyTLS10And11FailsTheProtocolCheck() async throws {
        let domain = try Domain { $0.onlyLegacyVersions() }
        let result = try await HostProcess.run(domain.arguments(["--json"]))
        let lines = try result.jsonLines()
        #expect(lines.map { $0["code"] as? String } == ["tls.protocol"], "\(result.stdout)")
        #expect((lines.first?["message"] as? String)?.contains("offers only TLS 1.0/1.1") == true)
    }

    @Test func aServerWithoutAnECDHESuiteFailsForwardSecrecy() async throws {
        let domain = try Domain(.cleanRSA) { $0.onlyNonForwardSecretCipher() }
        let result = try await HostProcess.run(domain.arguments(["--json"]))
        #expect(try result.jsonLines().map { $0["code"] as? String } == ["tls.noForwardSecrecy"], "\(result.stdout)")
    }

    @Test func aServerLimitedToTLS13PassesEveryCheck() async throws {
        let domain = try Domain { $0.minimumVersion = .tls13 }
        let result = try await HostProcess.run(domain.arguments())
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func theTLSFindingsHaveTheirOwnJUnitCase() async throws {
        let domain = try Domain(.expired)
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).xml").path
        defer { try? FileManager.default.removeItem(atPath: junit) }
        let result = try await HostProcess.run(domain.arguments(["--junit", junit]))
        #expect(result.status == 1)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="linux-host doctor" tests="5" failures="1">"#))
        #expect(xml.contains(#"name="HTTPS (App Transport Security)">"#))
        #expect(xml.contains(#"<failure type="tls.expired""#))
        #expect(xml.contains(#"name="association file"/>"#))
    }

    /// Hostile TLS: the check keeps one deadline (the TLS checks and the fetches after them share it), the finding
    /// says what happened, few connections are opened.
    @Test(.timeLimit(.minutes(5)), arguments: [
        (TLSFront.Behavior.silent, "the server accepted the connection but the handshake did not complete within 3 s"),
        (.closeAfterFirstMessage, "the server closed the connection during the handshake"),
    ])
    func aHandshakeThatNeverCompletesIsAClearErrorWithinTheDeadline(_ behavior: TLSFront.Behavior, _ words: String) async throws {
        let domain = try Domain { $0.behavior = behavior }
        let result = try await HostProcess.run(domain.arguments(timeout: "3", ["--json"]))
        #expect(result.status == 1)
        let lines = try result.jsonLines()
        let codes = lines.compactMap { $0["code"] as? String }
        #expect(codes.first == "tls.handshake", "\(result.stdout)")
        #expect(codes.contains("aasa.unreachable"))
        let message = try #require(lines.first?["message"] as? String)
        #expect(message.contains("No TLS handshake with \(domain.domain) completed"))
        #expect(message.contains(words), "\(message)")
        // The TLS checks, then the two locations, within the one deadline (two would be 6 s).
        #expect(result.elapsed < .seconds(Sanitizer.isActive ? 30 : 5), "\(result.elapsed)")
        #expect(domain.front.connectionCount <= 5)
    }

    @Test func aOneMebibyteChainIsAHandshakeError() async throws {
        let domain = try Domain(chainOfAtLeast: 1 << 20)
        let result = try await HostProcess.run(domain.arguments(["--json"]))
        let lines = try result.jsonLines()
        #expect(lines.first?["code"] as? String == "tls.handshake", "\(result.stdout)")
        #expect((lines.first?["message"] as? String)?.contains("excessive message size") == true)
    }

    @Test func aMissingOrNonPEMCAFileIsAUsageErrorNamingItBeforeAnyConnection() async throws {
        let domain = try Domain()
        let missing = "/nonexistent/roots-\(UUID().uuidString).pem"
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(UUID().uuidString).pem").path
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: text))
        defer { try? FileManager.default.removeItem(atPath: text) }
        for (file, words) in [(missing, "cannot open '\(missing)'"), (text, "'\(text)' is not a PEM file of certificates")] {
            var arguments = domain.arguments(caFile: false)
            arguments += ["--ca-file", file]
            let result = try await HostProcess.run(arguments)
            #expect(result.status == 2)
            #expect(result.stderr.contains("--ca-file: \(words)"), "\(result.stderr)")
            let email = text
            let campaign = try await HostProcess.run(["doctor", "campaign", "--email", email, "--app", DoctorCommandTests.app, "--ca-file", file])
            #expect(campaign.status == 2)
            #expect(campaign.stderr.contains("--ca-file: \(words)"), "\(campaign.stderr)")
        }
        #expect(domain.front.connectionCount == 0)
        #expect(domain.cdnFront.connectionCount == 0)
    }

    @Test func aCampaignResolvesOverTLSWithThePrivateRootTrustedCountingEachClickOnce() async throws {
        let domain = try Domain()
        domain.origin.setLink(.init(webLinkUrl: "https://www.example.com/p/1", mobileDeepLinkUrl: "example-app://p/1"), for: "/pub/acc?_ri_=1")
        let link = domain.front.url("/pub/acc?_ri_=1").absoluteString
        let email = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).html").path
        let aasa = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).json").path
        try Data(#"<a href="\#(link)">one</a> <a href="\#(link)">again</a>"#.utf8).write(to: URL(fileURLWithPath: email))
        try Data(DoctorCommandTests.aasa.utf8).write(to: URL(fileURLWithPath: aasa))
        defer { for file in [email, aasa] { try? FileManager.default.removeItem(atPath: file) } }
        let result = try await HostProcess.run([
            "doctor", "campaign", "--email", email, "--app", DoctorCommandTests.app, "--aasa", aasa, "--resolve",
            "--branded-domain", "127.0.0.1", "--allow-loopback", "--ca-file", domain.pki.rootFile, "--json", "--timeout", "30",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let line = try #require(try result.jsonLines().first { $0["link"] as? String == link })
        #expect(line["deepLink"] as? String == "example-app://p/1")
        #expect(domain.origin.requestCount(for: "/pub/acc?_ri_=1") == 1)
    }

    @Test func appleCDNsFailureHeadersAreQuoted() async throws {
        let standIns = try DoctorCommandTests.StandIns()
        AssociationFileServer(on: standIns.cdn).answer(
            .status(404, headers: [
                ("Apple-Failure-Reason", "SWCERR00301 Timeout"), ("Apple-Failure-Details", "Redirect limit exceeded"),
            ]),
            at: AssociationFileServer.cdnPath(for: standIns.domain))
        let result = try await HostProcess.run(standIns.arguments(["--json"]))
        let line = try #require(try result.jsonLines().first { $0["code"] as? String == "aasa.cdnUnavailable" })
        #expect((line["message"] as? String)?.contains(
            "Apple's CDN says: Apple-Failure-Reason: SWCERR00301 Timeout; Apple-Failure-Details: Redirect limit exceeded.") == true,
            "\(line)")
    }
}
