import Foundation
import Testing
import UniversalLinkKitTesting

/// The console contract of `linux-host doctor domain|campaign`, run as a user runs it, against loopback
/// stand-ins for the domain, Apple's CDN and the Response Handler.
struct DoctorCommandTests {
    static let app = "ABCDE12345.com.example.app"
    static let aasa = #"""
        {"applinks": {"apps": [], "details": [{"appIDs": ["ABCDE12345.com.example.app"],
          "components": [{"/": "/pub/cc", "exclude": true}, {"/": "/pub/acc"}]}]}}
        """#

    /// The domain and the CDN as two stubs, clean unless changed.
    final class StandIns: Sendable {
        let origin: ResponseHandlerStub
        let cdn: ResponseHandlerStub
        let files: AssociationFileServer

        init() throws {
            origin = try ResponseHandlerStub()
            cdn = try ResponseHandlerStub()
            files = AssociationFileServer(on: origin)
            files.serve(DoctorCommandTests.aasa, at: AssociationFileServer.wellKnownPath)
            AssociationFileServer(on: cdn).serve(DoctorCommandTests.aasa, at: AssociationFileServer.cdnPath(for: domain))
        }

        deinit {
            origin.shutdown()
            cdn.shutdown()
        }

        var domain: String { "127.0.0.1:\(origin.port)" }

        func arguments(_ extra: [String] = []) -> [String] {
            ["doctor", "domain", domain, "--app", DoctorCommandTests.app, "--responsys", "--apple-cdn",
             cdn.baseURL.absoluteString, "--allow-loopback", "--allow-http", "--timeout", "30"] + extra
        }
    }

    func write(_ text: String, _ suffix: String = "html") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).\(suffix)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aCleanDomainExitsZero() async throws {
        let standIns = try StandIns()
        let result = try await HostProcess.run(standIns.arguments())
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "0 errors, 0 warnings\n")
    }

    @Test func domainFindingsAreGroupedBySubjectErrorsFirst() async throws {
        let standIns = try StandIns()
        standIns.files.serve(Self.aasa, at: AssociationFileServer.wellKnownPath, contentType: "text/plain")
        standIns.files.serve("no", at: AssociationFileServer.wellKnownPath, status: 403, forUserAgentContaining: "AASA-Bot")
        let result = try await HostProcess.run(standIns.arguments())
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let wellKnown = standIns.origin.url(AssociationFileServer.wellKnownPath).absoluteString
        #expect(lines.first == wellKnown)
        #expect(lines.dropFirst().first?.hasPrefix("  error: aasa.botBlocked: ") == true)
        #expect(lines.dropFirst(2).first?.hasPrefix("  warning: aasa.contentType: ") == true)
        #expect(lines.last == "1 error, 1 warning")
    }

    @Test func subjectsWithErrorsComeFirstThenWarningsThenInformationWhateverTheEmailsOrder() async throws {
        let email = try write("""
            <a href="https://www.example.org/about">about</a>
            <a href="example-app://p/1">custom</a>
            <a href="https://news.example.com/unsubscribe">unsubscribe</a>
            """)
        let aasa = try write(#"{"applinks": {"details": [{"appIDs": ["\#(Self.app)"], "components": [{"/": "/*"}]}]}}"#, "json")
        defer { for file in [email, aasa] { try? FileManager.default.removeItem(atPath: file) } }
        let result = try await HostProcess.run([
            "doctor", "campaign", "--email", email, "--app", Self.app, "--aasa", aasa, "--branded-domain", "news.example.com",
        ])
        #expect(result.status == 1)
        let subjects = result.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map(String.init)
        #expect(subjects == [
            "https://news.example.com/unsubscribe", "example-app://p/1", "https://www.example.org/about",
            "1 error, 1 warning",
        ])
    }

    @Test func domainJSONIsOneFindingPerLineAndJUnitIsWritten() async throws {
        let standIns = try StandIns()
        standIns.files.redirect(AssociationFileServer.wellKnownPath, to: "https://cdn.example.net/aasa")
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).xml").path
        defer { try? FileManager.default.removeItem(atPath: junit) }
        let result = try await HostProcess.run(standIns.arguments(["--json", "--junit", junit]))
        #expect(result.status == 1)
        let lines = try result.jsonLines()
        #expect(lines.map { $0["code"] as? String } == ["aasa.redirect", "aasa.status", "aasa.unreachable"])
        #expect(lines.allSatisfy { Set($0.keys) == ["code", "severity", "subject", "message"] })
        #expect(lines.first?["severity"] as? String == "error")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(xml.contains(#"<testsuites name="linux-host doctor" tests="4" failures="1">"#))
        #expect(xml.contains(#"<testcase classname="doctor domain \#(standIns.domain)" name="association file">"#))
        #expect(xml.contains(#"<failure type="aasa.redirect, aasa.status, aasa.unreachable""#))
        #expect(xml.contains(#"name="Apple's CDN copy"/>"#))
    }

    @Test func campaignPrintsEachLinkThenItsFindings() async throws {
        let email = try write("""
            <a href="https://news.example.com/pub/acc?_ri_=1&amp;_ei_=A">app</a>
            <a href="https://news.example.com/unsubscribe">unsubscribe</a>
            <a href="example-app://p/1">custom</a><a href="mailto:a@example.com">mail</a>
            """)
        let aasa = try write(#"{"applinks": {"details": [{"appIDs": ["\#(Self.app)"], "components": [{"/": "/*"}]}]}}"#, "json")
        defer { for file in [email, aasa] { try? FileManager.default.removeItem(atPath: file) } }
        let result = try await HostProcess.run(["doctor", "campaign", "--email", email, "--app", Self.app, "--aasa", aasa, "--json"])
        #expect(result.status == 1)
        let lines = try result.jsonLines()
        #expect(lines.map { ($0["link"] ?? $0["code"]) as? String } == [
            "https://news.example.com/pub/acc?_ri_=1&_ei_=A",
            "https://news.example.com/unsubscribe", "link.webLinkOpensApp",
            "example-app://p/1", "link.customScheme",
            "mailto:a@example.com",
        ])
        #expect(lines[0]["kind"] as? String == "appLink")
        #expect(lines[0]["opensApp"] as? Bool == true)
        #expect(lines[0]["deepLink"] is NSNull)
        #expect(lines[0]["route"] is NSNull)
        #expect(Set(lines[0].keys) == ["link", "kind", "opensApp", "opensAppOnAndroid", "deepLink", "webLink", "route"])
        #expect(lines[0]["opensAppOnAndroid"] is NSNull)
        #expect(lines[3]["opensApp"] is NSNull)
        #expect(lines[5]["kind"] as? String == "other")
    }

    @Test func aBrandedDomainMatchesWithoutItsTrailingDotAndWhateverItsCaseAndAnUnusedOneIsWarnedAbout() async throws {
        let email = try write("""
            <a href="https://news.example.com/pub/acc?_ri_=1">app</a>
            <a href="https://NEWS.Example.com./pub/cc?_ri_=2">web</a>
            """)
        let aasa = try write(Self.aasa, "json")
        defer { for file in [email, aasa] { try? FileManager.default.removeItem(atPath: file) } }
        let result = try await HostProcess.run([
            "doctor", "campaign", "--email", email, "--app", Self.app, "--aasa", aasa, "--json",
            "--branded-domain", "News.Example.com.", "--branded-domain", "nwes.example.com",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = try result.jsonLines()
        #expect(lines.map { ($0["link"] ?? $0["code"]) as? String } == [
            "campaign.brandedDomainUnused",
            "https://news.example.com/pub/acc?_ri_=1",
            "https://NEWS.Example.com./pub/cc?_ri_=2",
        ])
        #expect(lines.first?["subject"] as? String == "nwes.example.com")
        #expect(lines.first?["severity"] as? String == "warning")
        let message = try #require(lines.first?["message"] as? String)
        #expect(message.contains("matches no link of the email (its http(s) links are on news.example.com)"))
        #expect(lines.dropFirst().first?["opensApp"] as? Bool == true)
        #expect(lines.last?["kind"] as? String == "webLink")
        #expect(lines.last?["opensApp"] as? Bool == false)
    }

    @Test func warningsAloneExitZero() async throws {
        let email = try write(#"<a href="example-app://p/1">open</a> <a href="https://www.example.org/">x</a>"#)
        defer { try? FileManager.default.removeItem(atPath: email) }
        let result = try await HostProcess.run(["doctor", "campaign", "--email", email, "--app", Self.app, "--branded-domain", "news.example.com"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // The custom scheme, and the branded domain no link is on.
        #expect(result.stdout.hasSuffix("0 errors, 2 warnings\n"))
        #expect(result.stdout.contains("info: link.notBranded"))
        #expect(result.stdout.contains("warning: campaign.brandedDomainUnused"))
    }

    @Test func campaignResolvesOnlyWithResolveAndFindsNullDeepLinksAndUnroutableOnes() async throws {
        let standIns = try StandIns()
        standIns.origin.setLink(.init(webLinkUrl: "https://www.example.com/p/1", mobileDeepLinkUrl: "example-app://products/1"), for: "/pub/acc?_ri_=1")
        standIns.origin.setLink(.init(webLinkUrl: "https://www.example.com/sale", mobileDeepLinkUrl: nil), for: "/pub/acc?_ri_=2")
        let base = standIns.origin.baseURL.absoluteString
        let email = try write("""
            <a href="\(base)/pub/acc?_ri_=1">one</a><a href="\(base)/pub/acc?_ri_=1">one again</a>
            <a href="\(base)/pub/acc?_ri_=2">two</a><a href="\(base)/pub/acc?_ri_=9">unknown</a>
            """)
        let routes = try write(#"{"namespaces": [{"scheme": "example-app", "routes": [{"pattern": "/products/:id"}]}]}"#, "json")
        defer { for file in [email, routes] { try? FileManager.default.removeItem(atPath: file) } }
        let common = ["doctor", "campaign", "--email", email, "--app", Self.app, "--routes", routes,
                      "--branded-domain", "127.0.0.1", "--allow-loopback", "--allow-http", "--json", "--timeout", "30"]
        _ = try await HostProcess.run(common)
        #expect(standIns.origin.requestCount(for: "/pub/acc") == 0)

        let result = try await HostProcess.run(common + ["--resolve"])
        #expect(result.status == 1)
        #expect(standIns.origin.requestCount(for: "/pub/acc?_ri_=1") == 1)
        let lines = try result.jsonLines()
        let one = try #require(lines.first { $0["link"] as? String == "\(base)/pub/acc?_ri_=1" })
        #expect(one["deepLink"] as? String == "example-app://products/1")
        #expect(one["route"] as? String == "/products/:id")
        let codes = lines.compactMap { $0["code"] as? String }
        // With --allow-http the stand-in's http links are judged as their https form (a rehearsal): no
        // link.insecure; then the blank app column, its web link unroutable, the 404.
        #expect(!codes.contains("link.insecure"))
        #expect(one["opensApp"] as? Bool == true)
        #expect(codes.contains("link.nullDeepLink"))
        #expect(codes.contains("link.unroutable"))
        #expect(codes.contains("link.resolveFailed"))
        let failed = try #require(lines.first { $0["code"] as? String == "link.resolveFailed" })
        #expect((failed["message"] as? String)?.contains("[httpStatus]") == true)
    }

    /// FoundationNetworking's libcurl re-sends a request by itself when a reused connection dies before the status
    /// line; with the resolver's own retry the server then counts the click three times. The doctor resolves on
    /// the resolver's default transport, which never re-sends: at most the request and one retry.
    @Test func resolveCountsAClickAtMostTwiceWhenTheServerDropsAReusedConnection() async throws {
        let standIns = try StandIns()
        standIns.origin.setLink(.init(webLinkUrl: "https://www.example.com/p/1", mobileDeepLinkUrl: nil), for: "/pub/acc?_ri_=1")
        standIns.origin.setLink(.init(webLinkUrl: "https://www.example.com/p/2", mobileDeepLinkUrl: nil), for: "/pub/acc?_ri_=2")
        standIns.origin.enqueue([.dropConnection, .dropConnection], for: "/pub/acc?_ri_=2")
        let base = standIns.origin.baseURL.absoluteString
        let email = try write(#"<a href="\#(base)/pub/acc?_ri_=1">one</a><a href="\#(base)/pub/acc?_ri_=2">two</a>"#)
        defer { try? FileManager.default.removeItem(atPath: email) }
        let result = try await HostProcess.run([
            "doctor", "campaign", "--email", email, "--app", Self.app, "--branded-domain", "127.0.0.1",
            "--allow-loopback", "--allow-http", "--json", "--resolve", "--timeout", "20",
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(standIns.origin.requestCount(for: "/pub/acc?_ri_=1") == 1)
        #expect(standIns.origin.requestCount(for: "/pub/acc?_ri_=2") == 2)
    }

    @Test func campaignJUnitHasOneCasePerLinkAndAFailureForEachLinkWithErrors() async throws {
        let email = try write("""
            <a href="https://news.example.com/pub/acc?_ri_=1&amp;x=&lt;y&gt;">app</a>
            <a href="https://news.example.com/unsubscribe">unsubscribe</a>
            <a href="example-app://p/1">custom</a>
            """)
        let aasa = try write(#"{"applinks": {"details": [{"appIDs": ["\#(Self.app)"], "components": [{"/": "/*"}]}]}}"#, "json")
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).xml").path
        defer { for file in [email, aasa, junit] { try? FileManager.default.removeItem(atPath: file) } }
        let result = try await HostProcess.run([
            "doctor", "campaign", "--email", email, "--app", Self.app, "--aasa", aasa, "--junit", junit,
            "--branded-domain", "news.example.com", "--branded-domain", "offers.example.com",
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="linux-host doctor" tests="4" failures="1">"#), "\(xml)")
        let suite = "doctor campaign \(email)"
        #expect(xml.contains(#"<testcase classname="\#(suite)" name="branded domains and association files">"#))
        #expect(xml.contains("<system-out>warning: campaign.brandedDomainUnused: offers.example.com: "))
        #expect(xml.contains(#"name="https://news.example.com/pub/acc?_ri_=1&amp;x=&lt;y&gt;"/>"#))
        #expect(xml.contains(#"<testcase classname="\#(suite)" name="https://news.example.com/unsubscribe">"#))
        #expect(xml.contains(#"<failure type="link.webLinkOpensApp""#))
        #expect(xml.contains("<system-out>warning: link.customScheme: example-app://p/1: "))
    }

    /// The links a browser reads: every named reference (the German and French letters TinyMCE writes, `&AMP;`),
    /// comments as a browser ends them, nothing inside `<title>` or `<textarea>`.
    @Test func campaignReadsTheLinksABrowserReads() async throws {
        let email = try write("""
            <html><head><title><a href="https://news.example.com/pub/acc?_ri_=title">x</a></title></head><body>
            <a href="https://news.example.com/pub/acc?_ri_=1&AMP;_ei_=E">app</a>
            <a href="https://www.example.de/touren/m&uuml;nchen-stra&szlig;e?ref=mail&amp;l=caf&eacute;">tour</a>
            <!--><a href="https://news.example.com/pub/cc?_ri_=2">after an empty comment</a>
            <!-- <a href="https://news.example.com/pub/acc?_ri_=comment"> --!><a href="https://news.example.com/pub/cc?_ri_=3">x</a>
            <textarea><a href="https://news.example.com/pub/acc?_ri_=textarea"></textarea>
            </body></html>
            """)
        let aasa = try write(Self.aasa, "json")
        defer { for file in [email, aasa] { try? FileManager.default.removeItem(atPath: file) } }
        let result = try await HostProcess.run([
            "doctor", "campaign", "--email", email, "--app", Self.app, "--aasa", aasa, "--json",
            "--branded-domain", "news.example.com",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let links = try result.jsonLines().compactMap { $0["link"] as? String }
        #expect(links == [
            "https://news.example.com/pub/acc?_ri_=1&_ei_=E",
            "https://www.example.de/touren/münchen-straße?ref=mail&l=café",
            "https://news.example.com/pub/cc?_ri_=2",
            "https://news.example.com/pub/cc?_ri_=3",
        ])
    }

    /// A bulletproof button whose VML half (only Outlook on Windows renders it) was not updated with the HTML one:
    /// listed as `outlookOnly` in every output, with its warning.
    @Test func campaignListsOutlookOnlyLinksApartInEveryOutput() async throws {
        let phone = "https://news.example.com/pub/acc?_ri_=X0Gzc2X%3DNEW&amp;_ei_=E"
        let vml = "https://news.example.com/pub/acc?_ri_=X0Gzc2X%3DOLD&amp;_ei_=E"
        let email = try write("""
            <!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" href="\(vml)" arcsize="10%">
            <center>Shop</center></v:roundrect><![endif]-->
            <!--[if !mso]><!--><a href="\(phone)">Shop</a><!--<![endif]-->
            """)
        let aasa = try write(Self.aasa, "json")
        let junit = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).xml").path
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).html").path
        defer { for file in [email, aasa, junit, report] { try? FileManager.default.removeItem(atPath: file) } }
        let arguments = ["doctor", "campaign", "--email", email, "--app", Self.app, "--aasa", aasa]
        let outlook = "https://news.example.com/pub/acc?_ri_=X0Gzc2X%3DOLD&_ei_=E"

        let text = try await HostProcess.run(arguments + ["--junit", junit, "--html", report])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("\(outlook)\n  warning: link.outlookOnlyDiffers: Only Outlook on Windows shows"), "\(text.stdout)")
        #expect(text.stdout.hasSuffix("""
            outlookOnly: 1 link only Outlook on Windows renders (inside <!--[if mso]>), not judged as app links
              \(outlook)
            0 errors, 1 warning

            """), "\(text.stdout)")

        let json = try await HostProcess.run(arguments + ["--json"])
        let lines = try json.jsonLines()
        #expect(lines.map { ($0["link"] ?? $0["code"]) as? String } == [outlook, "link.outlookOnlyDiffers", outlook.replacingOccurrences(of: "OLD", with: "NEW")])
        #expect(lines.map { $0["kind"] as? String } == ["outlookOnly", nil, "appLink"])
        #expect(lines[0]["opensApp"] is NSNull)

        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"name="\#(outlook.replacingOccurrences(of: "&", with: "&amp;")) (outlookOnly)">"#), "\(xml)")
        #expect(xml.contains("<system-out>warning: link.outlookOnlyDiffers: "))
        let page = try String(contentsOfFile: report, encoding: .utf8)
        #expect(page.contains("<td>Outlook only</td>"))
        #expect(page.contains("not judged (Outlook only)"))
    }

    /// A report path that cannot work is refused before anything is fetched or resolved (a resolution counts a
    /// click), and a FIFO is refused without waiting for a reader.
    @Test(arguments: [
        ("", "--junit: expected a file path, got an empty path"),
        ("DIR", "is a directory, not a regular file"),
        ("FIFO", "is a FIFO (named pipe), not a regular file"),
        ("/dev/null", "'/dev/null' is a character device, not a regular file"),
        ("/nonexistent/report.xml", "cannot write '/nonexistent/report.xml': the directory '/nonexistent' does not exist"),
        ("FILE/report.xml", "report.xml': Not a directory"),
    ])
    func aJUnitPathThatCannotBeWrittenIsAUsageErrorBeforeAnyRequest(_ path: String, _ message: String) async throws {
        let standIns = try StandIns()
        standIns.origin.setLink(.init(webLinkUrl: "https://www.example.com/p/1", mobileDeepLinkUrl: nil), for: "/pub/acc?_ri_=1")
        let email = try write(#"<a href="\#(standIns.origin.baseURL.absoluteString)/pub/acc?_ri_=1">one</a>"#)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { for file in [email, directory] { try? FileManager.default.removeItem(atPath: file) } }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let junit = switch path {
        case "DIR": directory
        case "FIFO": fifo
        case "FILE/report.xml": email + "/report.xml"
        default: path
        }
        let result = try await HostProcess.run([
            "doctor", "campaign", "--email", email, "--app", Self.app, "--branded-domain", "127.0.0.1",
            "--allow-loopback", "--allow-http", "--resolve", "--json", "--junit", junit,
        ])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(standIns.origin.requests.count == 0)
    }

    /// A write that fails after the checks (here: procfs refuses it even to root, who passes the permission
    /// check) is exit 1 with the system's reason, not Foundation's "error 512".
    @Test(.enabled(if: getuid() == 0, "root passes the writability check that would refuse the path first"))
    func aJUnitWriteThatFailsSaysWhyInTheSystemsWords() async throws {
        let email = try write(#"<a href="example-app://p/1">open</a>"#)
        defer { try? FileManager.default.removeItem(atPath: email) }
        let result = try await HostProcess.run(["doctor", "campaign", "--email", email, "--app", Self.app, "--junit", "/proc/version"])
        #expect(result.status == 1)
        let line = try #require(result.stderr.split(separator: "\n").first.map(String.init))
        #expect(line.hasPrefix("linux-host: doctor: cannot write the JUnit report '/proc/version': "), "\(line)")
        let reason = line.dropFirst("linux-host: doctor: cannot write the JUnit report '/proc/version': ".count)
        #expect(!reason.isEmpty && !reason.contains("NSCocoaErrorDomain") && !reason.contains("error 5"), "\(reason)")
    }

    @Test(arguments: [
        ("news.example.com:99999", true, "DOMAIN: expected a port from 1 to 65535 after the host, got '99999'"),
        ("news.example.com:0", true, "got '0'"),
        ("news.example.com:", true, "got ''"),
        ("[::1]:70000", true, "got '70000'"),
        ("news.example.com:8443", false, "DOMAIN: a port (news.example.com:8443) is for local stand-ins only: add --allow-loopback"),
    ])
    func aDomainsPortMustBeInRangeAndNeedsAllowLoopback(_ domain: String, _ allowLoopback: Bool, _ message: String) async throws {
        let result = try await HostProcess.run(
            ["doctor", "domain", domain, "--app", Self.app] + (allowLoopback ? ["--allow-loopback"] : []))
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func badInputsAreUsageErrors() async throws {
        let standIns = try StandIns()
        let missingApp = try await HostProcess.run(["doctor", "domain", standIns.domain])
        #expect(missingApp.status == 2)
        #expect(missingApp.stderr.contains("--app"))
        let fingerprintAlone = try await HostProcess.run(standIns.arguments(["--fingerprint", "AB:CD"]))
        #expect(fingerprintAlone.status == 2)
        let noEmail = try await HostProcess.run(["doctor", "campaign", "--email", "/nonexistent/email.html", "--app", Self.app])
        #expect(noEmail.status == 2)
        #expect(noEmail.stderr.contains("cannot open"))
        let email = try write("<a href=x>")
        let notAASA = try write("<html>", "json")
        defer { for file in [email, notAASA] { try? FileManager.default.removeItem(atPath: file) } }
        let badAASA = try await HostProcess.run(["doctor", "campaign", "--email", email, "--app", Self.app, "--aasa", notAASA])
        #expect(badAASA.status == 2)
        #expect(badAASA.stderr.contains("--aasa"))
        #expect(try await HostProcess.run(["doctor", "domain", "--help"]).status == 0)
    }

    /// Text prints what a domain sent escaped: an app ID from its file (or a `Location`) with a newline and escape
    /// sequences would otherwise clear the screen and forge the verdict line.
    @Test func untrustedTextIsEscapedSoItCannotForgeLines() async throws {
        let standIns = try StandIns()
        let forged = #"X.y\n0 errors, 0 warnings\u001B[2J"#
        standIns.files.serve(
            #"{"applinks": {"details": [{"appIDs": ["\#(forged)"], "components": [{"/": "/*"}]}]}}"#,
            at: AssociationFileServer.wellKnownPath)
        let result = try await HostProcess.run(standIns.arguments())
        #expect(result.status == 1)
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(result.stdout)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("0 errors") }.isEmpty, "\(result.stdout)")
        #expect(result.stdout.contains(#"X.y\u{A}0 errors, 0 warnings\u{1B}[2J"#), "\(result.stdout)")
        // JSON carries the exact text, escaped as JSON escapes it.
        let json = try await HostProcess.run(standIns.arguments(["--json"]))
        #expect(try json.jsonLines().contains { ($0["message"] as? String)?.contains("X.y\n0 errors, 0 warnings\u{1B}[2J") == true })

        // A Location header with an escape sequence that would retitle the terminal.
        standIns.files.redirect(AssociationFileServer.wellKnownPath, to: "https://www.example.com/\u{1B}]0;pwned\u{7}")
        let redirected = try await HostProcess.run(standIns.arguments())
        #expect(redirected.status == 1)
        #expect(!redirected.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(redirected.stdout)")
        #expect(redirected.stdout.contains(#"https://www.example.com/\u{1B}]0;pwned\u{7}"#), "\(redirected.stdout)")
    }

    /// The bound on the email itself: up to 16 MiB it is read (a million relative links fit: one warning each,
    /// BENCHMARKS.md), one byte more is a usage error (exit 2) before anything is read or fetched.
    @Test func anEmailOver16MiBIsAUsageErrorThatNamesTheLimit() async throws {
        let limit = 16 << 20
        let atLimit = try write("<html>" + String(repeating: " ", count: limit - 13) + "</html>")
        let overLimit = try write("<html>" + String(repeating: " ", count: limit - 12) + "</html>")
        let aasa = try write(Self.aasa, "json")
        defer { for file in [atLimit, overLimit, aasa] { try? FileManager.default.removeItem(atPath: file) } }
        let read = try await HostProcess.run(["doctor", "campaign", "--email", atLimit, "--app", Self.app, "--aasa", aasa])
        #expect(read.status == 0, "\(read.stderr)")
        let refused = try await HostProcess.run(["doctor", "campaign", "--email", overLimit, "--app", Self.app, "--aasa", aasa])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("is larger than \(limit) bytes"), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
    }

    /// An email with many hosts: the report grows with the links, not with hosts x links (a link's message does not
    /// list every branded host). Eight times the links: about eight times the text and the JUnit report.
    @Test func campaignOutputGrowsWithTheLinksNotWithLinksTimesHosts() async throws {
        func run(_ count: Int) async throws -> (text: Int, junit: Int) {
            var html = ""
            for index in 0..<count {
                html += #"<a href="https://news\#(index).example.com/pub/acc?_ri_=\#(index)">app</a>"#
                html += #"<a href="https://www.example.org/p/\#(index)">elsewhere</a>"#
            }
            let email = try write(html)
            let aasa = try write(Self.aasa, "json")
            let junit = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString).xml").path
            defer { for file in [email, aasa, junit] { try? FileManager.default.removeItem(atPath: file) } }
            let result = try await HostProcess.run([
                "doctor", "campaign", "--email", email, "--app", Self.app, "--aasa", aasa, "--junit", junit,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            return (result.stdout.utf8.count, try Data(contentsOf: URL(fileURLWithPath: junit)).count)
        }
        let small = try await run(40)
        let large = try await run(320)
        #expect(large.text < small.text * 9, "\(small) -> \(large)")
        #expect(large.junit < small.junit * 9, "\(small) -> \(large)")
    }

    /// 30 links whose Response Handler never answers, with --timeout 2: they are resolved a few at a time within one
    /// budget of three deadlines, and a link not started by then is not requested at all.
    @Test(.timeLimit(.minutes(5)))
    func campaignResolutionOfHangingLinksEndsWithinItsBudget() async throws {
        let standIns = try StandIns()
        standIns.origin.setDefaultBehavior(.noResponse)
        let base = standIns.origin.baseURL.absoluteString
        let email = try write((0..<30).map { #"<a href="\#(base)/pub/acc?_ri_=\#($0)">x</a>"# }.joined())
        let aasa = try write(Self.aasa, "json")
        defer { for file in [email, aasa] { try? FileManager.default.removeItem(atPath: file) } }
        let result = try await HostProcess.run([
            "doctor", "campaign", "--email", email, "--app", Self.app, "--aasa", aasa, "--resolve", "--timeout", "2",
            "--allow-loopback", "--allow-http", "--json",
        ])
        #expect(result.status == 1)
        let failed = try result.jsonLines().filter { $0["code"] as? String == "link.resolveFailed" }
        #expect(failed.count == 30)
        let messages = failed.compactMap { $0["message"] as? String }
        // Started and timed out: at its deadline, or cut at the budget's end (then within less than 2 s).
        let timedOut = messages.filter { $0.hasPrefix("The resolution failed [timeout]: no answer within ") }.count
        let notStarted = messages.filter { $0.hasPrefix("Not resolved [budget]") }.count
        // Four at a time: the first four start together, so at least four time out (one at a time, the six seconds
        // of budget would see three); the budget leaves the rest unsent, and what was sent is at most twelve links.
        #expect(timedOut >= 4 && timedOut <= 12, "\(timedOut)")
        #expect(timedOut + notStarted == 30)
        #expect(standIns.origin.requests.count <= 16, "\(standIns.origin.requests.count)")
    }

    /// A local rehearsal of a correct campaign (http stand-ins, --allow-http) exits 0: its http links
    /// are judged as their https form, by the file the stand-in serves over http.
    @Test func aRehearsalOfACorrectCampaignAgainstStandInsExitsZero() async throws {
        let standIns = try StandIns()
        standIns.origin.setLink(
            .init(webLinkUrl: "https://www.example.com/p/1", mobileDeepLinkUrl: "example-app://products/1"),
            for: "/pub/acc?_ri_=1")
        let base = standIns.origin.baseURL.absoluteString
        let email = try write(#"<a href="\#(base)/pub/acc?_ri_=1">app</a> <a href="\#(base)/pub/cc?_ri_=2">web</a>"#)
        defer { try? FileManager.default.removeItem(atPath: email) }
        let result = try await HostProcess.run([
            "doctor", "campaign", "--email", email, "--app", Self.app, "--resolve", "--allow-loopback", "--allow-http",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "0 errors, 0 warnings\n")
        #expect(standIns.origin.requestCount(for: AssociationFileServer.wellKnownPath) == 1)
    }
}
