import Testing
@testable import AssociatedDomains

struct AndroidDynamicRulesTests {
    static let manifest = #"""
    <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"><application>
    <activity android:name=".Main"><intent-filter android:autoVerify="true">
    <action android:name="android.intent.action.VIEW"/><category android:name="android.intent.category.DEFAULT"/>
    <category android:name="android.intent.category.BROWSABLE"/>
    <data android:scheme="https" android:host="news.example.com" android:pathPrefix="/pub/"/>
    </intent-filter></activity></application></manifest>
    """#

    static func assetLinks(_ components: String, package: String = "com.example.app") -> [UInt8] {
        Array(#"""
        [{"relation": ["delegate_permission/common.handle_all_urls"],
          "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": ["AA"]},
          "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": \#(components)}}}]
        """#.utf8)
    }

    static let rules = #"""
    [{"/": "/pub/cc*", "exclude": true},
     {"/": "/pub/acc*", "?": {"ri": "?*"}},
     {"#": "app"},
     {"/": "/pub/?", "comments": "one character"}]
    """#

    static let answers: [(String, Bool, String?, String)] = [
        ("https://news.example.com/pub/cc?ri=1", false, "dynamic_app_link_components[0]", "excludes it"),
        ("https://news.example.com/pub/acc?x=2&ri=1", true, "dynamic_app_link_components[1]", "allows it"),
        ("https://news.example.com/pub/acc?ri=", false, nil, "no dynamic_app_link_components rule matches"),
        ("https://news.example.com/pub/acc", false, nil, "no dynamic_app_link_components rule matches"),
        ("https://news.example.com/pub/other#app", true, "dynamic_app_link_components[2]", "allows it"),
        ("https://news.example.com/pub/x", true, "dynamic_app_link_components[3]", "allows it"),
        ("https://news.example.com/pub/xy", false, nil, "excludes it"),
        // Dynamic rules never widen the manifest: /other is not in any filter.
        ("https://news.example.com/other#app", false, nil, "no intent filter takes it"),
    ]

    @Test(arguments: answers)
    func theFirstMatchingRuleDecidesAndNoMatchExcludes(_ url: String, _ opensApp: Bool, _ rule: String?, _ reason: String) throws {
        let statements = try AndroidAssetStatement.statements(in: Self.assetLinks(Self.rules))
        let matcher = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: Self.manifest), statements: statements)
        let answer = matcher.explain(url)
        #expect(answer.opensApp == opensApp, "\(answer.reason)")
        #expect(answer.rule == rule)
        #expect(answer.reason.contains(reason), "\(answer.reason)")
    }

    @Test func android14IgnoresDynamicRules() throws {
        let statements = try AndroidAssetStatement.statements(in: Self.assetLinks(Self.rules))
        let matcher = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: Self.manifest), statements: statements, configuration: .init(platform: .android12To14))
        #expect(matcher.explain("https://news.example.com/pub/cc").opensApp)
    }

    static let malformed: [(String, String)] = [
        ("[]", "expected a non-empty array of rules, found an array of 0 elements"),
        ("{}", "expected a non-empty array of rules"),
        (#"["/x"]"#, "dynamic_app_link_components[0]: expected a rule object"),
        (#"[{"/": "/a"}, {"/": ""}]"#, "dynamic_app_link_components[1][\"/\"]: expected a non-empty string, found the string \"\""),
        (#"[{"?": {}}]"#, "expected a non-empty object of parameter globs"),
        (#"[{"?": {"a": 1}}]"#, "dynamic_app_link_components[0][\"?\"].a: expected a string, found a number (1)"),
        (#"[{"/": "/a", "exclude": "yes"}]"#, "dynamic_app_link_components[0].exclude: expected a boolean"),
        (##"[{"#": 3}]"##, "expected a non-empty string"),
    ]

    @Test(arguments: malformed)
    func oneMalformedFieldDropsEveryRule(_ components: String, _ message: String) throws {
        let statements = try AndroidAssetStatement.statements(in: Self.assetLinks(components))
        let statement = try #require(statements.first)
        #expect(statement.dynamicRules == nil)
        #expect(statement.droppedReason?.contains(message) == true, "\(statement.droppedReason ?? "nil")")
        #expect(statement.droppedReason?.contains("Android drops every dynamic rule and applies the manifest alone") == true)
        let matcher = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: Self.manifest), statements: statements)
        let answer = matcher.explain("https://news.example.com/pub/cc")
        #expect(answer.opensApp && answer.reason.contains("dynamic rules ignored"))
    }

    @Test func aStatementForAnotherPackageDoesNotVerify() throws {
        let statements = try AndroidAssetStatement.statements(in: Self.assetLinks(Self.rules, package: "com.other"))
        let matcher = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: Self.manifest), statements: statements)
        let answer = matcher.explain("https://news.example.com/pub/acc?ri=1")
        #expect(!answer.opensApp)
        #expect(answer.reason.contains("has no handle_all_urls statement for com.example.app"))
    }

    static func matcher(_ rules: [String], configuration: AndroidLinkMatcher.Configuration = .init()) throws -> AndroidLinkMatcher {
        let links = try AssetLinks(parsing: Self.assetLinks("[" + rules.joined(separator: ",") + "]"))
        return AndroidLinkMatcher(manifest: try AndroidManifest(parsing: Self.manifest), assetLinks: links, configuration: configuration)
    }

    @Test func aURLPastTheMatchingBudgetIsExcludedAndSaysWhy() throws {
        // Rules that each read the whole path looking for a number it lacks.
        let rules = (0..<1_000).map { #"{"/": "/pub/*x*\#($0 + 1_000)*"}"# }
        var configuration = AndroidLinkMatcher.Configuration()
        configuration.maximumMatchingSteps = 200_000
        let matcher = try Self.matcher(rules, configuration: configuration)
        let path = "/pub/x/" + String(repeating: "ab/", count: 3_400)
        var steps = 0
        let answer = matcher.explain("https://news.example.com" + path, steps: &steps)
        #expect(!answer.opensApp && answer.rule == nil)
        #expect(answer.reason == ".Main (line 2) takes it, but it was not matched: this URL against the 1000 dynamic_app_link_components rules "
            + "needs more than 200000 matching steps (the matcher's budget), and one that no rule matches is excluded on Android 15+; "
            + "shorten the URL, or give the rules literal text that tells them apart")
        // The budget, plus the one rule being matched when it ran out (one pass over the path).
        #expect(steps <= 200_000 + 2 * path.utf8.count + 16, "\(steps) steps")
        // Within the budget the same rules decide.
        #expect(matcher.explain("https://news.example.com/pub/x1005").rule == "dynamic_app_link_components[5]")
    }

    @Test func aRuleWhoseGlobCostsMoreThanTheWorkBudgetIsNeverTriedAndSaysSo() throws {
        let hostile = "*" + String(repeating: "a?", count: 2_049) + "*"
        let rules = [#"{"/": "\#(hostile)"}"#, #"{"/": "/pub/*"}"#]
        let matcher = try Self.matcher(rules)
        let answer = matcher.explain("https://news.example.com/pub/" + String(repeating: "ab", count: 3_000))
        #expect(answer.opensApp && answer.rule == "dynamic_app_link_components[1]")
        #expect(answer.reason.hasSuffix("; dynamic_app_link_components[0] was not tried: its globs cost more than the matching work budget (tooMuchMatchingWork)"))
        let links = try AssetLinks(parsing: Self.assetLinks("[" + rules.joined(separator: ",") + "]"))
        let keyPath = #"[0].relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components[0]"#
        #expect(links.diagnostics.map(\.code) == ["tooMuchMatchingWork"])
        #expect(links.diagnostics.first?.keyPath == keyPath)
        #expect(links.diagnostics.first?.severity == .error)
        #expect(links.diagnostics.first?.message.contains("at most 4096 steps per URL character each and 250000 for the file") == true)
        #expect(matcher.lint().contains { $0.code == .tooMuchMatchingWork && $0.keyPath == keyPath })
    }

    @Test func aURLOver64KiBIsNotMatchedAgainstTheRules() throws {
        let matcher = try Self.matcher([#"{"/": "/pub/*"}"#])
        let answer = matcher.explain("https://news.example.com/pub/" + String(repeating: "a", count: 65_536))
        #expect(!answer.opensApp && answer.rule == nil)
        #expect(answer.reason.contains("the URL is longer than 65536 bytes: it was not matched against the dynamic_app_link_components rules"))
        #expect(matcher.explain("https://news.example.com/pub/" + String(repeating: "a", count: 60_000)).opensApp)
    }

    @Test func notJSONIsAnError() {
        #expect(throws: AssociationError.self) { _ = try AndroidAssetStatement.statements(in: Array("{".utf8)) }
        #expect(throws: AssociationError.self) { _ = try AndroidAssetStatement.statements(in: Array("{}".utf8)) }
    }
}

/// `assetlinks.json` read through the public API: its statements and what reading found.
struct AssetLinksReadingTests {
    @Test func aRepeatedKeyKeepsItsLastValueWithAWarningNamingItsKeyPath() throws {
        let links = try AssetLinks(parsing: #"""
            [{"relation": ["delegate_permission/common.handle_all_urls"], "relation": ["delegate_permission/common.get_login_creds"],
              "target": {"namespace": "android_app", "package_name": "com.example.app"}},
             {"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "com.example.a", "package_name": "com.example.b",
                         "sha256_cert_fingerprints": ["AA"]}}]
            """#.utf8)
        // The first statement's last `relation` is not handle_all_urls: it is left out, as Android leaves it out.
        #expect(links.statements.map(\.packageName) == ["com.example.b"])
        #expect(links.statements.map(\.fingerprints) == [["AA"]])
        #expect(links.diagnostics.map(\.description) == [
            #"warning: [0].relation: key "relation" appears more than once in this object; the last value counts, as Android's JSONObject reads it: remove the others"#,
            #"warning: [1].target.package_name: key "package_name" appears more than once in this object; the last value counts, as Android's JSONObject reads it: remove the others"#,
        ])
    }

    @Test func aDroppedRuleSetIsAnErrorAtItsKeyPath() throws {
        let links = try AssetLinks(parsing: #"""
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "com.example.app"},
              "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": []}}}]
            """#.utf8)
        #expect(links.diagnostics.map(\.code) == ["dynamicRulesDropped"])
        #expect(links.diagnostics.first?.severity == .error)
        #expect(links.diagnostics.first?.keyPath
            == #"[0].relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components"#)
    }

    @Test func aFileWrittenForAnAppReadsBackToTheSameStatement() throws {
        let fingerprint = String(repeating: "AB:", count: 31) + "AB"
        let written = try AssetLinks(packageName: "com.example.app", fingerprints: [fingerprint.lowercased()], rules: [.exclude("/pub/cc"), .include("/pub/*")])
        let read = try AssetLinks(parsing: written.json().utf8)
        #expect(read == written)
        #expect(read.diagnostics.isEmpty)
    }
}
