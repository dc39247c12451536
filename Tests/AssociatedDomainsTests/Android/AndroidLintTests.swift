import Testing
@testable import AssociatedDomains

struct AndroidLintTests {
    static func manifest(_ filters: String) -> String {
        #"<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"><application><activity android:name=".Main">"#
            + "\n" + filters + "\n</activity></application></manifest>"
    }

    static let web = #"""
    <action android:name="android.intent.action.VIEW"/><category android:name="android.intent.category.DEFAULT"/>
    <category android:name="android.intent.category.BROWSABLE"/>
    """#

    @Test func reportsWhatAndroidRejectsIgnoresAndNeverMatches() throws {
        let xml = Self.manifest("""
            <intent-filter android:autoVerify="true">\(Self.web)<data android:scheme="https" android:host="a.example.com" android:pathAdvancedPattern="/p/.*/x"/></intent-filter>
            <intent-filter>\(Self.web)<data android:scheme="https" android:host="b.example.com"/></intent-filter>
            <intent-filter android:autoVerify="true">\(Self.web)<data android:scheme="myapp" android:host="c"/><data android:scheme="https"/></intent-filter>
            <intent-filter><action android:name="android.intent.action.VIEW"/><data android:scheme="https" android:host="d.example.com"/></intent-filter>
            <intent-filter><data android:host="e.example.com"/></intent-filter>
            <intent-filter>\(Self.web)<data android:scheme="https" android:pathAdvancedPattern="[abc" android:pathPrefix="/x"/></intent-filter>
            """)
        let findings = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: xml)).lint()
        let lines = findings.map(\.description)
        #expect(lines.first?.hasPrefix("error: AndroidManifest.xml:11: android:pathAdvancedPattern: advanced pattern \"[abc\"") == true)
        #expect(lines.contains("error: AndroidManifest.xml:2: advanced pattern \"/p/.*/x\" can never match: its greedy .* (or [^...]*) leaves nothing for what follows, and Android does not backtrack"))
        #expect(lines.contains { $0.hasPrefix("warning: AndroidManifest.xml:4: host \"b.example.com\" is in no android:autoVerify=\"true\" filter") })
        #expect(lines.contains { $0.hasPrefix("warning: AndroidManifest.xml:6: .Main (line 6) has android:autoVerify=\"true\" but Android verifies only") })
        #expect(lines.contains { $0.hasPrefix("error: AndroidManifest.xml:8: .Main (line 8) lacks category BROWSABLE or DEFAULT") })
        #expect(lines.contains { $0.hasPrefix("error: AndroidManifest.xml:9: .Main (line 9) declares android:host but no android:scheme") })
        #expect(lines.contains { $0.hasPrefix("warning: AndroidManifest.xml:10: .Main (line 10) declares path attributes but no android:host") })
        // Errors come first.
        #expect(findings.firstIndex { $0.severity == .warning }! > findings.lastIndex { $0.severity == .error }!)
    }

    @Test(arguments: [("/p/.*/x", true), (".+a", true), ("/p/.*", false), ("/p/.*a*", false), ("/[^/]*/x", false), ("/p/.{2,}x", true)])
    func advancedPatternsThatCanNeverMatch(_ text: String, _ never: Bool) throws {
        #expect(try AndroidPattern(text, kind: .advancedGlob).neverMatchesAnything == never)
        if never { #expect(!(try AndroidPattern(text, kind: .advancedGlob)).matches("/p/aaa/x")) }
    }

    @Test func reportsDroppedAndHiddenDynamicRules() throws {
        let xml = Self.manifest(#"<intent-filter android:autoVerify="true">\#(Self.web)<data android:scheme="https" android:host="a.example.com"/></intent-filter>"#)
        let manifest = try AndroidManifest(parsing: xml)
        func links(_ components: String) throws -> [AndroidAssetStatement] {
            try AndroidAssetStatement.statements(in: Array(#"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app"}, "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": \#(components)}}}]"#.utf8))
        }
        let dropped = AndroidLinkMatcher(manifest: manifest, statements: try links("[]")).lint()
        #expect(dropped.map(\.code) == [.dynamicRulesDropped])
        let hidden = AndroidLinkMatcher(manifest: manifest, statements: try links(#"[{"/": "*"}, {"/": "/x", "exclude": true}]"#)).lint()
        #expect(hidden.map(\.description) == [#"warning: [0].relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components[1]: {"/": "/x", "exclude": true} never decides: dynamic_app_link_components[0] {"/": "*"} matches every URL it matches, and the first match wins"#])
        let wider = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: Self.manifest(#"<intent-filter android:autoVerify="true">\#(Self.web)<data android:scheme="https" android:host="a.example.com" android:pathPrefix="/pub/"/></intent-filter>"#)), statements: try links(#"[{"/": "/pub/*"}, {"/": "/shop/*"}]"#)).lint()
        #expect(wider.map(\.description) == [#"warning: [0].relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components[1]: {"/": "/shop/*"} allows paths no intent filter takes (such as /shop/x on a.example.com): dynamic rules cannot widen the manifest, so it never opens the app"#])
        let none = AndroidLinkMatcher(manifest: manifest, statements: [], packageName: "com.example.app").lint()
        #expect(none.map(\.code) == [.hostNotVerified])
    }

    @Test func reportsURLsWhereIOSAndAndroidDisagree() throws {
        let app = "ABCDE12345.com.example.app"
        let aasa = try AppSiteAssociation(parsing: try AppLinkRuleSet(appIDs: [app], rules: [.include("/products/*"), .exclude("/pub/cc")]).appSiteAssociation())
        // The manifest forgot /products and takes /pub/cc.
        let xml = Self.manifest(#"<intent-filter android:autoVerify="true">\#(Self.web)<data android:scheme="https" android:host="a.example.com" android:pathPrefix="/pub/"/></intent-filter>"#)
        let findings = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: xml)).lint(aasa: aasa, appID: app, urls: ["https://a.example.com/other"])
        let disagreements = findings.filter { $0.code == .platformsDisagree }.map(\.keyPath)
        #expect(disagreements.contains("https://a.example.com/products/x"))
        #expect(disagreements.contains("https://a.example.com/pub/cc"))
        #expect(!disagreements.contains("https://a.example.com/other"))
        #expect(findings.first { $0.keyPath == "https://a.example.com/pub/cc" }?.message.hasPrefix("iOS opens the browser") == true)
    }
}
