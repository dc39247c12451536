import Foundation
import Testing

/// The console contracts of `linux-host aasa` and `linux-host assetlinks`, run as a user runs them.
struct AssociationCommandTests {
    static let app = "ABCDE12345.com.example.app"

    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("aasa-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theGeneratedResponsysFileChecksCleanAndOpensOnlyAppLinks() async throws {
        let generated = try await HostProcess.run(["aasa", "generate", "--app", Self.app, "--responsys"])
        #expect(generated.status == 0)
        let file = try write(generated.stdout)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let check = try await HostProcess.run(["aasa", "check", "--file", file])
        #expect(check.status == 0)
        #expect(check.stdout.contains("0 errors, 0 warnings"))

        let urls = ["https://news.example.com/pub/acc?_ri_=1", "https://news.example.com/pub/acc/", "https://news.example.com/pub/cc?x=1",
                    "https://news.example.com/PUB/ACC", "https://news.example.com/pub/accx", "not a url"]
        let plain = try await HostProcess.run(["aasa", "match", "--file", file, "--domain", "news.example.com", "--app", Self.app] + urls)
        #expect(plain.status == 0)
        #expect(plain.stdout.split(separator: "\n") == ["match", "match", "exclude", "none", "none", "none"])

        let json = try await HostProcess.run(["aasa", "match", "--json", "--file", file, "--domain", "news.example.com", "--app", Self.app] + urls)
        let lines = try json.jsonLines()
        #expect(lines.map { $0["url"] as? String } == urls)
        #expect(lines.map { $0["result"] as? String } == ["match", "match", "exclude", "none", "none", "none"])
        #expect((lines[2]["explanation"] as? String)?.contains("excluded by applinks.details[0].components[0]") == true)
    }

    @Test func legacyModeIgnoresQueryRules() async throws {
        let file = try write(#"{"applinks": {"details": [{"appID": "\#(Self.app)", "appIDs": ["\#(Self.app)"], "components": [{"/": "/x", "?": {"a": "1"}}], "paths": ["/x"]}]}}"#)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let url = "https://example.com/x?a=2"
        let modern = try await HostProcess.run(["aasa", "match", "--file", file, "--domain", "example.com", "--app", Self.app, url])
        let legacy = try await HostProcess.run(["aasa", "match", "--legacy", "--file", file, "--domain", "example.com", "--app", Self.app, url])
        #expect(modern.stdout == "none\n")
        #expect(legacy.stdout == "match\n")
    }

    @Test func checkReportsErrorsWithTheirKeyPathAndExitsOne() async throws {
        let file = try write(#"{"applinks": {"apps": [], "details": [{"appID": "bad", "paths": ["NOT/x"]}]}}"#)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try await HostProcess.run(["aasa", "check", "--file", file])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error: applinks.details[0].appID: expected an app ID"))
        #expect(result.stdout.contains("error: applinks.details[0].paths[0]: expected \"NOT \""))
    }

    @Test func anUnreadableFileExitsTwoWithAMessage() async throws {
        let missing = try await HostProcess.run(["aasa", "match", "--file", "/nonexistent/aasa.json", "--app", Self.app, "https://a.example/x"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot open"))
        let html = try write("<html>")
        defer { try? FileManager.default.removeItem(atPath: html) }
        let notJSON = try await HostProcess.run(["aasa", "match", "--file", html, "--app", Self.app, "https://a.example/x"])
        #expect(notJSON.status == 2)
        #expect(try await HostProcess.run(["aasa", "match", "--app", Self.app, "https://a.example/x"]).status == 2)
    }

    @Test func assetlinksWritesTheDigitalAssetLinksFile() async throws {
        let fingerprint = Array(repeating: "ab", count: 32).joined(separator: ":")
        let result = try await HostProcess.run(["assetlinks", "generate", "--package", "com.example.app", "--fingerprint", fingerprint])
        #expect(result.status == 0)
        let statements = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let target = try #require(statements.first?["target"] as? [String: Any])
        #expect(statements.first?["relation"] as? [String] == ["delegate_permission/common.handle_all_urls"])
        #expect(target["namespace"] as? String == "android_app")
        #expect(target["package_name"] as? String == "com.example.app")
        #expect(target["sha256_cert_fingerprints"] as? [String] == [fingerprint.uppercased()])
        let bad = try await HostProcess.run(["assetlinks", "generate", "--package", "com.example.app", "--fingerprint", "12:34"])
        #expect(bad.status != 0)
        #expect(!bad.stderr.isEmpty)
    }
}

extension AssociationCommandTests {
    @Test func anExclusionAfterTheInclusionThatCoversItIsWrittenFirstAndDecides() async throws {
        let generated = try await HostProcess.run([
            "aasa", "generate", "--app", Self.app, "--include", "/products/*", "--exclude", "/products/internal/*",
            "--format", "components",
        ])
        #expect(generated.status == 0)
        #expect(generated.stderr.isEmpty)
        let file = try write(generated.stdout)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let check = try await HostProcess.run(["aasa", "check", "--file", file])
        #expect(check.stdout.contains("0 errors, 0 warnings"))
        let match = try await HostProcess.run([
            "aasa", "match", "--file", file, "--domain", "example.com", "--app", Self.app,
            "https://example.com/products/internal/1", "https://example.com/products/1",
        ])
        #expect(match.stdout.split(separator: "\n") == ["exclude", "match"])
    }

    @Test func checkWarnsWhenAnEarlierRuleDecidesEveryURLOfALaterOne() async throws {
        let file = try write(#"""
            {"applinks": {"details": [{"appIDs": ["\#(Self.app)"],
              "components": [{"/": "/products/*"}, {"/": "/products/internal/*", "exclude": true}]}]}}
            """#)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let check = try await HostProcess.run(["aasa", "check", "--file", file])
        #expect(check.status == 0)  // a warning, not an error
        #expect(check.stdout.contains("0 errors, 1 warning"))
        let output = check.stdout + check.stderr
        #expect(output.contains("applinks.details[0].components[1]"))
        #expect(output.contains("put the exclusion first"))
    }

    @Test func generateWarnsOnceAboutARuleAnEarlierOneShadows() async throws {
        let generated = try await HostProcess.run([
            "aasa", "generate", "--app", Self.app, "--include", "/products/*", "--include", "/products/1",
            "--format", "components",
        ])
        #expect(generated.status == 0)  // written as asked: a warning, not an error
        let lines = generated.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "\(generated.stderr)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("linux-host: aasa generate: warning: applinks.details[0].components[1]: "))
        #expect(line.components(separatedBy: "warning:").count == 2, "says warning more than once: \(line)")
        #expect(line.contains("components[0]"))
    }
}
