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

    @Test(arguments: [
        ("*", "", true), ("*", "abc", true), ("?", "", false), ("?", "a", true), ("?*", "", false), ("?*", "ab", true),
        ("/a*b", "/axxbxb", true), ("/a*b", "/axxbx", false), ("a?c", "abc", true), ("a?c", "ac", false),
    ])
    func dynamicGlobs(_ pattern: String, _ text: String, _ matches: Bool) {
        #expect(DynamicGlob.matches(Array(pattern.utf16), Array(text.utf16)) == matches)
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
