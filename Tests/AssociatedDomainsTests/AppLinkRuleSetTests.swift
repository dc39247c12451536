import Testing
@testable import AssociatedDomains

/// Generating AASA files and the Android intent filter, and reading them back.
struct AppLinkRuleSetTests {
    @Test func responsysPresetExcludesWebLinksThenIncludesAppLinks() throws {
        let rules = AppLinkRuleSet.responsys(appIDs: [app])
        #expect(rules.rules.map(\.path) == ["/pub/cc", "/pub/acc"])
        #expect(try rules.appSiteAssociation(format: .legacy) == """
            {
              "applinks": {
                "apps": [],
                "details": [
                  {
                    "appID": "ABCDE12345.com.example.app",
                    "paths": ["NOT /pub/cc", "/pub/acc"]
                  }
                ]
              }
            }
            """)
        #expect(try rules.appSiteAssociation(format: .components) == """
            {
              "applinks": {
                "details": [
                  {
                    "appIDs": ["ABCDE12345.com.example.app"],
                    "components": [
                      {
                        "/": "/pub/cc",
                        "exclude": true,
                        "comment": "Responsys web links open the browser"
                      },
                      {
                        "/": "/pub/acc",
                        "comment": "Responsys app links open the app"
                      }
                    ]
                  }
                ]
              }
            }
            """)
    }

    @Test func globalRoutingPathsAreConfigurable() {
        let rules = AppLinkRuleSet.responsys(appIDs: [app], appLinkPath: "/t/a", webLinkPath: "/t/w")
        #expect(rules.rules == [.exclude("/t/w", comment: "Responsys web links open the browser"),
                                .include("/t/a", comment: "Responsys app links open the app")])
    }

    static let ruleSets: [AppLinkRuleSet] = [
        .responsys(appIDs: [app]),
        .responsys(appIDs: [app, "ZZZZZ99999.com.example.other"]),
        AppLinkRuleSet(appIDs: [app], rules: [.exclude("/account/*"), .include("/products/*"), .include("/p/???/$(digit)*"),
                                              .include("/help")]),
        AppLinkRuleSet(appIDs: [app], rules: [.exclude("/admin*"), .include("*")]),
    ]

    static let urls = ["/pub/acc?_ri_=1", "/pub/acc/", "/pub/cc", "/PUB/ACC", "/pub/accx", "/account/x", "/products",
                       "/products/1?x#y", "/p/abc/7x", "/p/ab/7", "/help/", "/admin/x", "/", "/other"]

    @Test(arguments: ruleSets)
    func everyFormatReadsBackCleanAndMatchesAlike(ruleSet: AppLinkRuleSet) throws {
        var answers: [[AppLinkMatch.Outcome]] = []
        for format in AppLinkRuleSet.Format.allCases {
            let text = try ruleSet.appSiteAssociation(format: format)
            #expect(AppSiteAssociation.check(Array(text.utf8)).isEmpty, "\(format)")
            let file = try AppSiteAssociation(parsing: text)
            #expect(file == (try ruleSet.association(format: format)))
            var platforms: [AppLinkMatcher.Configuration.Platform] = [.iOS13AndLater]
            if format != .components { platforms.append(.iOS9To12) }
            for platform in platforms {
                let m = AppLinkMatcher(file, configuration: .init(platform: platform))
                for appID in ruleSet.appIDs {
                    answers.append(Self.urls.map { m.match("https://news.example.com" + $0, appID: appID).outcome })
                }
            }
        }
        #expect(Set(answers.map { $0.map(\.rawValue).joined(separator: ",") }).count == 1)
    }

    @Test func generatorRefusesBadInput() {
        #expect(throws: AssociationError.self) { try AppLinkRuleSet(appIDs: ["nope"], rules: [.include("/x")]).validate() }
        #expect(throws: AssociationError.self) { try AppLinkRuleSet(appIDs: [], rules: [.include("/x")]).validate() }
        #expect(throws: AssociationError.self) { try AppLinkRuleSet(appIDs: [app], rules: []).validate() }
        #expect(throws: AssociationError.self) { try AppLinkRuleSet(appIDs: [app], rules: [.include("")]).validate() }
        #expect(throws: AssociationError.self) { try AppLinkRuleSet(appIDs: [app], rules: [.include("NOT /x")]).validate() }
        do {
            try AppLinkRuleSet(appIDs: ["nope"], rules: [.include("/x")]).validate()
        } catch {
            #expect(error.code == .invalidAppID)
            #expect(error.message == "\"nope\" is not an app ID: expected TEAMID.bundle.identifier with a 10-character team ID (A–Z, 0–9)")
        }
    }

    /// Found by the generate -> parse property test: these rules were written as legacy paths ("NOT  x", "NOT/a")
    /// that the checker reports as mistyped exclusions and iOS 9–12 does not read as the rule given.
    @Test(arguments: [AppLinkRuleSet.Rule.exclude(" x"), .include("NOT/a"), .include("not a"), .include("Not/x")])
    func aRuleWhoseLegacyFormReadsAsAMistypedExclusionIsRefused(rule: AppLinkRuleSet.Rule) throws {
        let rules = AppLinkRuleSet(appIDs: [app], rules: [rule, .include("/a")])
        #expect(throws: AssociationError.self) { try rules.appSiteAssociation(format: .legacy) }
    }

    @Test(arguments: [AppLinkRuleSet.Rule.include(" x"), .exclude("NOT/a"), .include("nota/x"), .exclude("/not")])
    func aRuleWhoseLegacyFormIsUnambiguousChecksWithoutErrors(rule: AppLinkRuleSet.Rule) throws {
        let text = try AppLinkRuleSet(appIDs: [app], rules: [rule]).appSiteAssociation(format: .both)
        #expect(AppSiteAssociation.check(Array(text.utf8)).allSatisfy { $0.severity != .error })
    }

    @Test func androidIntentFilterAcceptsTheIncludes() throws {
        let rules = AppLinkRuleSet(appIDs: [app], rules: [
            .exclude("/pub/cc"), .include("/pub/acc"), .include("/products/*"), .include("/p/*.html"), .include("/*"),
        ])
        #expect(try rules.androidIntentFilter(host: "news.example.com") == #"""
            <intent-filter android:autoVerify="true">
                <action android:name="android.intent.action.VIEW" />
                <category android:name="android.intent.category.DEFAULT" />
                <category android:name="android.intent.category.BROWSABLE" />
                <data android:scheme="https" />
                <data android:host="news.example.com" />
                <!-- excluded: /pub/cc stays out of the app on Android 15+ through assetlinks.json dynamic_app_link_components; Android 14 and earlier open it in the app when a path below takes it -->
                <data android:path="/pub/acc" />
                <data android:path="/pub/acc/" />
                <data android:path="/products" />
                <data android:pathPrefix="/products/" />
                <data android:pathPattern="/p/.*\\.html" />
                <data android:pathPrefix="/" />
            </intent-filter>
            """#)
        #expect(throws: AssociationError.self) { try rules.androidIntentFilter(host: "https://x") }
    }
}

struct AssetLinksTests {
    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    @Test func writesTheHandleAllURLsStatement() throws {
        let links = try AssetLinks(packageName: "com.example.app", fingerprints: [Self.fingerprint.lowercased()])
        #expect(links.statements.map(\.fingerprints) == [[Self.fingerprint]])
        #expect(links.json() == """
            [
              {
                "relation": ["delegate_permission/common.handle_all_urls"],
                "target": {
                  "namespace": "android_app",
                  "package_name": "com.example.app",
                  "sha256_cert_fingerprints": [
                    "\(Self.fingerprint)"
                  ]
                }
              }
            ]
            """)
    }

    @Test(arguments: [
        fingerprint, fingerprint.lowercased(), fingerprint.split(separator: ":").joined(),
    ])
    func fingerprintsNormaliseToUpperCaseColonPairs(input: String) {
        #expect(AssetLinks.normalisedFingerprint(input) == Self.fingerprint)
    }

    @Test(arguments: [
        "", "AB:CD", String(fingerprint.dropLast(3)), fingerprint + ":00", fingerprint.replacingColons(with: "-"),
        "G" + fingerprint.dropFirst(), "146:DE" + fingerprint.dropFirst(6),
    ])
    func malformedFingerprintsAreRejected(input: String) {
        #expect(AssetLinks.normalisedFingerprint(input) == nil)
        #expect(throws: AssociationError.self) { try AssetLinks(packageName: "com.example.app", fingerprints: [input]) }
    }

    @Test(arguments: ["com", "com.", ".com.x", "com.1x", "com.ex-ample", "com..x", "com.exa mple"])
    func malformedPackageNamesAreRejected(name: String) {
        #expect(throws: AssociationError.self) { try AssetLinks(packageName: name, fingerprints: [Self.fingerprint]) }
    }

    @Test func packageNamesMayUseUnderscoresAndDigits() throws {
        #expect(try AssetLinks(packageName: "com.example_2.app3", fingerprints: [Self.fingerprint]).statements.map(\.packageName)
                == ["com.example_2.app3"])
    }
}

private extension String {
    func replacingColons(with replacement: Character) -> String {
        String(map { $0 == ":" ? replacement : $0 })
    }
}

struct AppLinkRuleSetEscapingTests {
    @Test func oddPathsSurviveTheRoundTrip() throws {
        let rules = AppLinkRuleSet(appIDs: [app], rules: [
            .exclude(#"/a"b\c"#), .include("/ünï/*", comment: "tab\tand \"quotes\""), .include("/a b/$(digit)"),
            .include("/x\u{1}"),
        ])
        for format in AppLinkRuleSet.Format.allCases {
            let text = try rules.appSiteAssociation(format: format)
            #expect(AppSiteAssociation.check(Array(text.utf8)).isEmpty)
            let m = AppLinkMatcher(try AppSiteAssociation(parsing: text))
            #expect(m.match(E + #"/a"b\c"#, appID: app).outcome == .exclude)
            #expect(m.match(E + "/ünï/1", appID: app).outcome == .match)
            #expect(m.match(E + "/a b/7", appID: app).outcome == .match)
        }
    }
}
