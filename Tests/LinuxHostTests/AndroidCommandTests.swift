import Foundation
import Testing

/// The console contracts of `linux-host android`, run as a user runs them.
struct AndroidCommandTests {
    static let manifest = #"""
    <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"><application>
    <activity android:name=".Main"><intent-filter android:autoVerify="true">
    <action android:name="android.intent.action.VIEW"/><category android:name="android.intent.category.DEFAULT"/>
    <category android:name="android.intent.category.BROWSABLE"/>
    <data android:scheme="https" android:host="news.example.com" android:pathPrefix="/pub/"/>
    </intent-filter></activity></application></manifest>
    """#

    static let assetLinks = #"""
    [{"relation": ["delegate_permission/common.handle_all_urls"],
      "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": []},
      "relation_extensions": {"delegate_permission/common.handle_all_urls": {
        "dynamic_app_link_components": [{"/": "/pub/cc*", "exclude": true}, {"/": "/pub/*"}]}}}]
    """#

    func write(_ text: String, _ suffix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("android-\(UUID().uuidString).\(suffix)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A key repeated in `assetlinks.json` keeps its last value, as Android's `JSONObject` reads it: here the second
    /// list of dynamic rules, which keeps `/pub/cc` out of the app. `check` reports it, `match` warns on stderr.
    @Test func aRepeatedKeyInAssetLinksIsReportedAndItsLastValueCounts() async throws {
        let repeated = #"""
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": []},
              "relation_extensions": {"delegate_permission/common.handle_all_urls": {
                "dynamic_app_link_components": [{"/": "/pub/*"}],
                "dynamic_app_link_components": [{"/": "/pub/cc*", "exclude": true}, {"/": "/pub/*"}]}}}]
            """#
        let manifest = try write(Self.manifest, "xml"), links = try write(repeated, "json")
        defer { try? FileManager.default.removeItem(atPath: manifest); try? FileManager.default.removeItem(atPath: links) }
        let keyPath = #"[0].relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components"#
        let message = #"key "dynamic_app_link_components" appears more than once in this object; the last value counts, as Android's JSONObject reads it: remove the others"#

        let check = try await HostProcess.run(["android", "check", "--json", "--manifest", manifest, "--assetlinks", links])
        #expect(check.status == 0)
        let findings = try check.jsonLines()
        #expect(findings.contains { $0["code"] as? String == "duplicateKey" && $0["severity"] as? String == "warning"
            && $0["keyPath"] as? String == keyPath && $0["message"] as? String == message })

        let match = try await HostProcess.run(["android", "match", "--manifest", manifest, "--assetlinks", links, "https://news.example.com/pub/cc"])
        #expect(match.status == 0)
        #expect(match.stdout.hasPrefix("browser\t"))
        #expect(match.stderr == "linux-host: android match: \(links): warning: \(keyPath): \(message)\n")
    }

    @Test func matchAnswersEachURLWithItsFilterRuleAndReason() async throws {
        let manifest = try write(Self.manifest, "xml"), links = try write(Self.assetLinks, "json")
        defer { try? FileManager.default.removeItem(atPath: manifest); try? FileManager.default.removeItem(atPath: links) }
        let urls = ["https://news.example.com/pub/acc?ri=1", "https://news.example.com/pub/cc?ri=1", "https://news.example.com/x"]
        let json = try await HostProcess.run(["android", "match", "--json", "--manifest", manifest, "--assetlinks", links] + urls)
        #expect(json.status == 0)
        let lines = try json.jsonLines()
        #expect(lines.map { $0["url"] as? String } == urls)
        #expect(lines.map { $0["opensApp"] as? Bool } == [true, false, false])
        #expect(lines.map { $0["filter"] as? String } == [".Main (line 2)", ".Main (line 2)", nil])
        #expect(lines.map { $0["rule"] as? String } == ["dynamic_app_link_components[1]", "dynamic_app_link_components[0]", nil])
        #expect(lines[2]["rule"] is NSNull)
        #expect((lines[1]["reason"] as? String)?.contains("excludes it on Android 15+") == true)

        let older = try await HostProcess.run(["android", "match", "--platform", "android12", "--manifest", manifest, "--assetlinks", links] + urls)
        #expect(older.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["app", "app", "browser"])
    }

    @Test func anUnreadableManifestExitsTwoSayingWhere() async throws {
        let broken = try write("<manifest>\n<application>", "xml")
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let result = try await HostProcess.run(["android", "match", "--manifest", broken, "https://a.example/x"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("2:14: expected </application>, found the end of the file"))
        let missing = try await HostProcess.run(["android", "match", "--manifest", "/nonexistent.xml", "https://a.example/x"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot open"))
    }

    /// As in `doctor` and `aasa check`: what the manifest says is untrusted, so an activity name with an escape
    /// sequence and a newline cannot clear the screen or forge a line of text output.
    @Test func matchEscapesTheManifestsTextInItsOutput() async throws {
        let hostile = Self.manifest.replacingOccurrences(of: #"android:name=".Main""#, with: #"android:name=".Main&#27;[2J&#10;app""#)
        let manifest = try write(hostile, "xml")
        defer { try? FileManager.default.removeItem(atPath: manifest) }
        let result = try await HostProcess.run(["android", "match", "--manifest", manifest, "https://news.example.com/pub/acc"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 1, "\(result.stdout)")
        #expect(result.stdout.hasPrefix("app\t.Main\\u{1B}[2J\\u{A}app (line 2) takes it"), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}"))
    }

    @Test func patternPrintsOneAnswerPerString() async throws {
        let plain = try await HostProcess.run(["android", "pattern", "--type", "simple", "/a.*b", "/axxb", "/axbxb"])
        #expect(plain.status == 0)
        #expect(plain.stdout == "match\nnone\n")
        let json = try await HostProcess.run(["android", "pattern", "--json", "--type", "advanced", "/[0-9]{2,}", "/42", "/4"])
        let lines = try json.jsonLines()
        #expect(lines.map { $0["matches"] as? Bool } == [true, false])
        #expect(lines.map { $0["string"] as? String } == ["/42", "/4"])
        #expect(lines.allSatisfy { $0["pattern"] as? String == "/[0-9]{2,}" && $0["type"] as? String == "advanced" })
    }

    @Test func theAndroid15EscapedDotIsAFlag() async throws {
        let current = try await HostProcess.run(["android", "pattern", "--type", "simple", #"/a\.b"#, "/a.b", "/axb"])
        #expect(current.stdout == "match\nnone\n")
        let android15 = try await HostProcess.run(["android", "pattern", "--android15-escaped-dot", "--type", "simple", #"/a\.b"#, "/a.b", "/axb"])
        #expect(android15.stdout == "match\nmatch\n")
    }

    @Test func aPatternAndroidRejectsExitsTwoWithAMessage() async throws {
        let result = try await HostProcess.run(["android", "pattern", "--type", "advanced", "/a/**", "/a/b"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("expected a token before the modifier \"*\""))
        let badType = try await HostProcess.run(["android", "pattern", "--type", "regex", "x", "y"])
        #expect(badType.status == 2)
    }

    @Test func generatedFilterAndDynamicRulesReadBackAsTheRulesSay() async throws {
        let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
        let filter = try await HostProcess.run(["assetlinks", "generate", "--intent-filter", "--domain", "news.example.com", "--include", "/*", "--exclude", "/pub/cc/*"])
        #expect(filter.status == 0)
        let links = try await HostProcess.run(["assetlinks", "generate", "--package", "com.example.app", "--fingerprint", fingerprint, "--include", "/*", "--exclude", "/pub/cc/*"])
        #expect(links.status == 0)
        let manifestText = """
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"><application><activity android:name=".Main">
            \(filter.stdout)</activity></application></manifest>
            """
        let manifest = try write(manifestText, "xml"), assetLinks = try write(links.stdout, "json")
        defer { try? FileManager.default.removeItem(atPath: manifest); try? FileManager.default.removeItem(atPath: assetLinks) }
        let urls = ["https://news.example.com/pub/acc", "https://news.example.com/pub/cc/x", "https://news.example.com/"]
        let android15 = try await HostProcess.run(["android", "match", "--manifest", manifest, "--assetlinks", assetLinks] + urls)
        #expect(android15.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["app", "browser", "app"])
        let android12 = try await HostProcess.run(["android", "match", "--platform", "android12", "--manifest", manifest, "--assetlinks", assetLinks] + urls)
        #expect(android12.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["app", "app", "app"])
    }

    @Test func aGeneratedFilterKeepsBackslashesAndUnicodeEscapesAsWritten() async throws {
        let filter = try await HostProcess.run([
            "assetlinks", "generate", "--intent-filter", "--domain", "news.example.com", "--include", #"/a\b"#,
            "--include", #"/c\u0041"#,
        ])
        #expect(filter.status == 0)
        #expect(filter.stdout.contains(#"<data android:path="/a\\b" />"#))
        #expect(filter.stdout.contains(#"<data android:path="/c\\u0041" />"#))
        let manifest = try write("""
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"><application><activity android:name=".Main">
            \(filter.stdout)</activity></application></manifest>
            """, "xml")
        defer { try? FileManager.default.removeItem(atPath: manifest) }
        let urls = ["https://news.example.com/a%5Cb", "https://news.example.com/ab", "https://news.example.com/c%5Cu0041", "https://news.example.com/cA"]
        let match = try await HostProcess.run(["android", "match", "--manifest", manifest] + urls)
        #expect(match.stdout.split(separator: "\n").map { $0.split(separator: "\t")[0] } == ["app", "browser", "app", "browser"])
    }

    /// A long URL against an AASA of thousands of rules that each read it whole: iOS's answer stops at the matching
    /// budget and says so, the comparison stops at its own budget after it and says how far it got, and the check
    /// ends with its findings.
    @Test func checkStopsComparingAtItsBudgetAndSaysHowFarItGot() async throws {
        let app = "ABCDE12345.com.example.app"
        let manifest = try write("""
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"><application>
            <activity android:name=".Main"><intent-filter android:autoVerify="true">
            <action android:name="android.intent.action.VIEW"/><category android:name="android.intent.category.DEFAULT"/>
            <category android:name="android.intent.category.BROWSABLE"/>
            <data android:scheme="https" android:host="news.example.com" android:pathPattern="/.*"/>
            </intent-filter></activity></application></manifest>
            """, "xml")
        let rules = (0..<4_000).map { #"{"/": "/*x*\#($0 + 1_000)*"}"# }.joined(separator: ",")
        let aasa = try write(#"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [\#(rules)]}]}}"#, "json")
        defer { for f in [manifest, aasa] { try? FileManager.default.removeItem(atPath: f) } }
        let pairs = (0..<100).map { ($0 < 10 ? "0" : "") + "\($0)/" }.joined()
        let long = "https://news.example.com/x/" + String(repeating: pairs, count: 200)
        let check = try await HostProcess.run(["android", "check", "--json", "--manifest", manifest, "--aasa", aasa, "--app", app, long])
        #expect(check.status == 1)
        let lines = try check.jsonLines()
        #expect(lines.map { $0["code"] as? String } == ["platformsDisagree", "comparisonsStopped"])
        #expect((lines.first?["message"] as? String)?.hasPrefix(
            "iOS opens the browser (not matched: this URL against the 4000 rules for \"\(app)\" needs more than 67108864 matching steps") == true)
        #expect(lines.last?["message"] as? String == "iOS and Android were compared up to the comparison budget (67108864 matching steps): on 1 of 4001 URLs; give the URLs that matter as arguments, they are compared first")
    }

    @Test func checkReportsDisagreementsWithTheAASAAndExitsOne() async throws {
        let app = "ABCDE12345.com.example.app"
        let aasa = try await HostProcess.run(["aasa", "generate", "--app", app, "--include", "/pub/*", "--exclude", "/pub/cc/*"])
        let manifest = try write(Self.manifest, "xml"), aasaFile = try write(aasa.stdout, "json"), links = try write(Self.assetLinks, "json")
        defer { for f in [manifest, aasaFile, links] { try? FileManager.default.removeItem(atPath: f) } }
        let without = try await HostProcess.run(["android", "check", "--manifest", manifest, "--aasa", aasaFile, "--app", app])
        #expect(without.status == 1)
        #expect(without.stdout.contains("error: https://news.example.com/pub/cc/x: iOS opens the browser"))
        let with = try await HostProcess.run(["android", "check", "--json", "--manifest", manifest, "--assetlinks", links, "--aasa", aasaFile, "--app", app, "https://news.example.com/pub/cc/x"])
        let lines = try with.jsonLines()
        #expect(!lines.contains { $0["code"] as? String == "platformsDisagree" && $0["keyPath"] as? String == "https://news.example.com/pub/cc/x" })
        let missing = try await HostProcess.run(["android", "check", "--manifest", manifest, "--aasa", aasaFile])
        #expect(missing.status == 2)
    }
}

/// `doctor campaign --manifest --assetlinks --html`: both platforms per link, and the HTML page.
struct CampaignAndroidCommandTests {
    @Test func campaignJudgesAndroidAndWritesTheHTMLReport() async throws {
        let app = "ABCDE12345.com.example.app"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("campaign-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func file(_ name: String, _ text: String) throws -> String {
            let path = dir.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let email = try file("email.html", """
            <a href="https://news.example.com/pub/acc?_ri_=1">app</a>
            <a href="https://news.example.com/pub/cc?_ri_=2">web</a>
            """)
        let aasa = try file("aasa.json", #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "/pub/cc", "exclude": true}, {"/": "/pub/acc"}]}]}}"#)
        let manifest = try file("AndroidManifest.xml", AndroidCommandTests.manifest)
        // A statement without dynamic rules: nothing is fetched, and /pub/cc opens the app on Android.
        let links = try file("assetlinks.json", #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app"}}]"#)
        let html = dir.appendingPathComponent("report.html").path
        let result = try await HostProcess.run([
            "doctor", "campaign", "--email", email, "--app", app, "--aasa", aasa, "--manifest", manifest, "--assetlinks", links,
            "--html", html, "--json",
        ])
        #expect(result.status == 1)
        let lines = try result.jsonLines()
        #expect(lines.compactMap { $0["opensAppOnAndroid"] as? Bool } == [true, true])
        #expect(lines.contains { $0["code"] as? String == "link.platformsDisagree" })
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<b>1</b>iOS/Android disagreements"))
        #expect(page.contains("news.example.com/pub/cc?_ri_=2"))

        let missing = try await HostProcess.run(["doctor", "campaign", "--email", email, "--app", app, "--aasa", aasa, "--assetlinks", aasa])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--assetlinks and --package need --manifest"))
    }
}
