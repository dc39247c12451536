import Foundation
import Testing
import UniversalLinkKitTesting

/// `linux-host doctor domain --html FILE`: the page a person is handed, run as a user runs it against a domain and
/// Apple's CDN served over real TLS on loopback, with certificates made for the test.
struct DoctorDomainHTMLTests {
    typealias Domain = DoctorTLSCommandTests.Domain

    /// Runs the doctor with `--json --html` and returns its JSON lines and the page.
    func check(_ domain: Domain) async throws -> (status: Int32, lines: [[String: Any]], page: String) {
        let report = FileManager.default.temporaryDirectory
            .appendingPathComponent("doctor-\(UUID().uuidString).html").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let result = try await HostProcess.run(domain.arguments(["--json", "--html", report]))
        return (result.status, try result.jsonLines(), try String(contentsOfFile: report, encoding: .utf8))
    }

    /// Text as the page must carry it: escaped for HTML content.
    func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The page must not fetch or run anything, whatever it quotes (quoted markup is text: `&lt;img src=x&gt;`).
    func expectSelfContained(_ page: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(page.hasPrefix("<!DOCTYPE html>"), sourceLocation: sourceLocation)
        let forbidden = ["<script", "<img", "<iframe", "<object", "<embed", "<link", "url(", "@import", "http-equiv"]
        for forbidden in forbidden {
            #expect(!page.contains(forbidden), "\(forbidden)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [
        (CertificateSpec.expired, "tls.expired", "expired on"), (.selfSigned, "tls.untrusted", "self-signed"),
    ])
    func aCertificateFindingIsOnThePageUnderHTTPSWithItsMessageAndCode(
        _ spec: CertificateSpec, _ code: String, _ words: String
    ) async throws {
        let domain = try Domain(spec)
        let (status, lines, page) = try await check(domain)
        #expect(status == 1)
        let message = try #require(lines.first { $0["code"] as? String == code }?["message"] as? String, "\(lines)")
        #expect(message.contains(words))
        expectSelfContained(page)
        #expect(page.contains("<title>Domain check: \(domain.domain)</title>"))
        #expect(page.contains("<div class=\"tile bad\"><b>1</b>errors</div>"), "\(page)")
        #expect(page.contains("1 error to fix before links of this domain work as intended."))
        // The HTTPS check comes first, as the one with the error, and holds the finding: message, code, subject.
        let firstCheck = try #require(page.components(separatedBy: "<section class=\"check\">").dropFirst().first)
        #expect(
            firstCheck.hasPrefix("\n<h2>HTTPS (App Transport Security) <span class=\"sev error\">1 error</span></h2>"),
            "\(firstCheck)")
        #expect(firstCheck.contains(
            "<li data-severity=\"error\"><span class=\"sev error\">error</span> \(escaped(message)) "
                + "<span class=\"code\">\(code) · https://\(domain.domain)</span></li>"), "\(firstCheck)")
        // The file is still fetched and judged: its checks found nothing.
        #expect(page.contains("<h2>Checks without findings</h2>\n<ul class=\"quiet\">\n<li>association file</li>\n"))
    }

    /// A certificate's name and Apple's CDN's failure headers are the server's words: the page shows them as text.
    @Test func hostileTextFromTheCertificateAndTheCDNIsEscaped() async throws {
        var spec = CertificateSpec.selfSigned
        spec.commonName = #"<script>alert("cn")</script>"#
        let domain = try Domain(spec)
        AssociationFileServer(on: domain.cdn).answer(
            .status(404, headers: [
                ("Apple-Failure-Reason", "<img src=x onerror=alert(1)>"), ("Apple-Failure-Details", "a & b"),
            ]),
            at: AssociationFileServer.cdnPath(for: domain.domain))
        let (status, lines, page) = try await check(domain)
        #expect(status == 1)
        let messages = lines.compactMap { $0["message"] as? String }
        // The hostile text reached the findings, as the server sent it...
        #expect(messages.contains { $0.contains("<script>alert(") }, "\(messages)")
        #expect(messages.contains { $0.contains("<img src=x onerror=alert(1)>") }, "\(messages)")
        // ...and the page carries it only as text.
        expectSelfContained(page)
        #expect(page.contains("&lt;script&gt;alert("), "\(page)")
        #expect(page.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(page.contains("a &amp; b"))
        for message in messages { #expect(page.contains(escaped(message)), "\(message)") }
    }

    @Test func aCleanDomainsPageSaysItHasNoErrors() async throws {
        let domain = try Domain()
        let (status, lines, page) = try await check(domain)
        #expect(status == 0)
        #expect(lines.isEmpty, "\(lines)")
        expectSelfContained(page)
        #expect(page.contains("<div class=\"tile ok\"><b>0</b>errors</div>"))
        #expect(page.contains("<p class=\"verdict ok\">No errors.</p>"), "\(page)")
        #expect(!page.contains("data-severity"))
        #expect(page.contains("""
            <h2>Checks without findings</h2>
            <ul class="quiet">
            <li>HTTPS (App Transport Security)</li>
            <li>association file</li>
            <li>expected URLs</li>
            <li>Apple's fetcher (AASA-Bot)</li>
            <li>Apple's CDN copy</li>
            </ul>
            """), "\(page)")
    }

    /// The report path is checked before anything is fetched: a directory is a usage error and no connection is
    /// made.
    @Test func aReportPathThatCannotBeWrittenIsAUsageErrorBeforeAnyConnection() async throws {
        let domain = try Domain()
        let directory = FileManager.default.temporaryDirectory.path
        let result = try await HostProcess.run(domain.arguments(["--html", directory]))
        #expect(result.status == 2)
        #expect(result.stderr.contains("is a directory, not a regular file"), "\(result.stderr)")
        #expect(domain.front.connectionCount == 0)
        #expect(domain.cdnFront.connectionCount == 0)
    }
}
