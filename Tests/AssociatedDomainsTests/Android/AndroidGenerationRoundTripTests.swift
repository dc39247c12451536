import Testing
@testable import AssociatedDomains

/// The rule set writes the AASA, the intent filter and the dynamic rules; read back, Android must answer as iOS does
/// for every URL (Android 15+), and the pre-15 form must differ exactly where its note says.
struct AndroidGenerationRoundTripTests {
    static let app = "ABCDE12345.com.example.app"
    static let host = "news.example.com"
    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static let ruleSets: [AppLinkRuleSet] = [
        .responsys(appIDs: [app]),
        AppLinkRuleSet(appIDs: [app], rules: [.include("/products/*"), .exclude("/products/internal/*"), .include("/help")]),
        AppLinkRuleSet(appIDs: [app], rules: [.exclude("/pub/cc/*"), .include("/*")]),
    ]

    static let paths = [
        "/pub/acc", "/pub/acc/", "/pub/acc?_ri_=X0", "/pub/cc", "/pub/cc/x", "/pub/accx", "/PUB/ACC", "/",
        "/products", "/products/", "/products/42", "/products/internal", "/products/internal/x", "/productsx",
        "/help", "/help/", "/helpx", "/other", "/pub/acc#frag",
    ]

    static func manifest(_ filter: String) -> String {
        """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app">
          <application><activity android:name=".Main">
        \(filter)
          </activity></application>
        </manifest>
        """
    }

    static func iOS(_ ruleSet: AppLinkRuleSet) throws -> AppLinkMatcher {
        AppLinkMatcher(try AppSiteAssociation(parsing: try ruleSet.appSiteAssociation()))
    }

    @Test(arguments: ruleSets.indices)
    func theCompatibleFilterPlusDynamicRulesAnswerAsIOSDoesOnAndroid15(index: Int) throws {
        let ruleSet = Self.ruleSets[index]
        let manifest = try AndroidManifest(parsing: Self.manifest(try ruleSet.androidIntentFilter(host: Self.host)))
        #expect(manifest.problems.isEmpty)
        let links = try AssetLinks(packageName: "com.example.app", fingerprints: [Self.fingerprint], rules: ruleSet.rules).json()
        let read = try AssetLinks(parsing: links.utf8)
        #expect(read.diagnostics.isEmpty)
        let android = AndroidLinkMatcher(manifest: manifest, assetLinks: read)
        let iOS = try Self.iOS(ruleSet)
        for path in Self.paths {
            let url = "https://\(Self.host)\(path)"
            let expected = iOS.explain(url, appID: Self.app, domain: Self.host).outcome == .match
            let answer = android.explain(url)
            #expect(answer.opensApp == expected, "\(url): \(answer.reason)")
        }
    }

    @Test(arguments: ruleSets.indices)
    func theAndroid15GroupFormAnswersAsIOSDoes(index: Int) throws {
        let ruleSet = Self.ruleSets[index]
        let manifest = try AndroidManifest(parsing: Self.manifest(try ruleSet.androidIntentFilter(host: Self.host, form: .android15)))
        #expect(manifest.intentFilters.first?.paths.isEmpty == true)
        let android = AndroidLinkMatcher(manifest: manifest)
        let iOS = try Self.iOS(ruleSet)
        for path in Self.paths {
            let url = "https://\(Self.host)\(path)"
            let expected = iOS.explain(url, appID: Self.app, domain: Self.host).outcome == .match
            #expect(android.explain(url).opensApp == expected, "\(url): \(android.explain(url).reason)")
        }
    }

    @Test func android14OpensWhatTheNoteSaysItOpens() throws {
        let ruleSet = Self.ruleSets[1]
        let filter = try ruleSet.androidIntentFilter(host: Self.host)
        #expect(filter.contains("<!-- excluded: /products/internal/* stays out of the app on Android 15+ through assetlinks.json dynamic_app_link_components; Android 14 and earlier open it in the app when a path below takes it -->"))
        let android14 = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: Self.manifest(filter)), configuration: .init(platform: .android12To14))
        #expect(android14.explain("https://\(Self.host)/products/internal/x").opensApp)
        #expect(!(try Self.iOS(ruleSet)).explain("https://\(Self.host)/products/internal/x", appID: Self.app).outcome.opens)
        // The Android 15 group form on Android 14: groups are ignored and the filter takes every path.
        let groups = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: Self.manifest(try ruleSet.androidIntentFilter(host: Self.host, form: .android15))), configuration: .init(platform: .android12To14))
        #expect(groups.explain("https://\(Self.host)/anything").opensApp)
    }

    @Test func theDynamicRulesAreWrittenInAssetLinks() throws {
        let rules = try AppLinkRuleSet.responsys(appIDs: [Self.app]).androidDynamicRules()
        #expect(rules.map(\.summary) == [#"{"/": "/pub/cc", "exclude": true}"#, #"{"/": "/pub/cc/", "exclude": true}"#, #"{"/": "/pub/acc"}"#, #"{"/": "/pub/acc/"}"#])
        let json = try AssetLinks(packageName: "com.example.app", fingerprints: [Self.fingerprint], rules: AppLinkRuleSet.responsys(appIDs: []).rules).json()
        #expect(json.contains(#""dynamic_app_link_components""#))
        #expect(json.contains(#""exclude": true"#))
    }
}

private extension AppLinkMatch.Outcome {
    var opens: Bool { self == .match }
}
