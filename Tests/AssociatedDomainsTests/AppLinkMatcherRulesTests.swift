import Testing
@testable import AssociatedDomains

/// Details, rule order, defaults, variables and the two platform modes.
struct AppLinkMatcherRulesTests {
    static let other = "ZZZZZ99999.com.example.other"

    func file(_ applinks: String) throws -> AppSiteAssociation {
        try AppSiteAssociation(parsing: "{\"applinks\": {" + applinks + "}}")
    }

    @Test func firstMatchingRuleWinsSoAnEarlierExclusionKeepsTheURLOnTheWeb() throws {
        let m = AppLinkMatcher(try file(#""details": [{"appIDs": ["\#(app)"], "components": [{"/": "/pub/cc", "exclude": true}, {"/": "/pub/*"}]}]"#))
        let excluded = m.match(E + "/pub/cc", appID: app)
        #expect(excluded.outcome == .exclude)
        #expect(excluded.keyPath == "applinks.details[0].components[0]")
        #expect(excluded.explanation == #"excluded by applinks.details[0].components[0] {"/": "/pub/cc", "exclude": true}"#)
        let matched = m.match(E + "/pub/acc", appID: app)
        #expect(matched.outcome == .match)
        #expect(matched.ruleIndex == 1)
        #expect(matched.explanation == #"matched applinks.details[0].components[1] {"/": "/pub/*"}"#)
    }

    @Test func detailsAreTriedInOrderAndOnlyThoseListingTheApp() throws {
        let m = AppLinkMatcher(try file(#"""
            "details": [
              {"appIDs": ["\#(Self.other)"], "components": [{"/": "/a", "exclude": true}]},
              {"appIDs": ["\#(app)"], "components": [{"/": "/b"}]},
              {"appIDs": ["\#(app)", "\#(Self.other)"], "components": [{"/": "/a"}, {"/": "/b", "exclude": true}]}
            ]
            """#))
        #expect(m.match(E + "/a", appID: app).outcome == .match)
        #expect(m.match(E + "/a", appID: app).detailIndex == 2)
        #expect(m.match(E + "/b", appID: app).detailIndex == 1)
        #expect(m.match(E + "/a", appID: Self.other).outcome == .exclude)
        #expect(m.match(E + "/b", appID: Self.other).outcome == .exclude)
        let unknown = m.match(E + "/a", appID: "AAAAAAAAAA.x")
        #expect(unknown.outcome == .none)
        #expect(unknown.explanation == #"no detail lists "AAAAAAAAAA.x" in appIDs/appID"#)
    }

    @Test func componentsReplacePathsWhenBothExist() throws {
        let f = try file(#""details": [{"appID": "\#(app)", "appIDs": ["\#(app)"], "components": [{"/": "/new"}], "paths": ["/old"]}]"#)
        let modern = AppLinkMatcher(f)
        #expect(modern.match(E + "/new", appID: app).outcome == .match)
        #expect(modern.match(E + "/old", appID: app).outcome == .none)
        let legacy = AppLinkMatcher(f, configuration: .init(platform: .iOS9To12))
        #expect(legacy.match(E + "/new", appID: app).outcome == .none)
        #expect(legacy.match(E + "/old", appID: app).outcome == .match)
    }

    @Test func legacyNOTPrefixIsAnExclusion() throws {
        let m = AppLinkMatcher(try file(#""apps": [], "details": [{"appID": "\#(app)", "paths": ["NOT /pub/cc*", "/pub/*"]}]"#))
        #expect(m.match(E + "/pub/cc/1", appID: app).outcome == .exclude)
        #expect(m.match(E + "/pub/acc", appID: app).outcome == .match)
        #expect(m.match(E + "/pub/acc", appID: app).keyPath == "applinks.details[0].paths[1]")
    }

    @Test func defaultsMergePerKeyFileThenDetailThenRule() throws {
        let m = AppLinkMatcher(try file(#"""
            "defaults": {"caseSensitive": false, "?": {"campaign": "?*"}},
            "details": [{"appIDs": ["\#(app)"], "defaults": {"percentEncoded": false},
                         "components": [{"/": "/a b"}, {"/": "/raw", "?": "*", "caseSensitive": true}]}]
            """#))
        // caseSensitive from the file, percentEncoded from the detail, "?" from the file.
        #expect(m.match(E + "/A%20B?campaign=x", appID: app).outcome == .match)
        #expect(m.match(E + "/A%20B", appID: app).outcome == .none)
        // The rule's own keys win.
        #expect(m.match(E + "/raw", appID: app).outcome == .match)
        #expect(m.match(E + "/RAW", appID: app).outcome == .none)
    }

    @Test func defaultsDoNotApplyToLegacyPathsUnlessConfigured() throws {
        let f = try file(#""apps": [], "defaults": {"caseSensitive": false}, "details": [{"appID": "\#(app)", "paths": ["/pub/acc"]}]"#)
        #expect(AppLinkMatcher(f).match(E + "/PUB/ACC", appID: app).outcome == .none)
        let configured = AppLinkMatcher(f, configuration: .init(appliesDefaultsToLegacyPaths: true))
        #expect(configured.match(E + "/PUB/ACC", appID: app).outcome == .match)
        // iOS 9–12 never knew defaults.
        let legacy = AppLinkMatcher(f, configuration: .init(platform: .iOS9To12, appliesDefaultsToLegacyPaths: true))
        #expect(legacy.match(E + "/PUB/ACC", appID: app).outcome == .none)
    }

    @Test func legacyModeReadsOnlyAppIDAndIgnoresQueryAndFragment() throws {
        let f = try file(#"""
            "apps": [],
            "details": [{"appIDs": ["\#(app)"], "components": [{"/": "/modern"}]},
                        {"appID": "\#(app)", "paths": ["/old"]}]
            """#)
        let legacy = AppLinkMatcher(f, configuration: .init(platform: .iOS9To12))
        #expect(legacy.match(E + "/modern", appID: app).outcome == .none)
        #expect(legacy.match(E + "/old?x=1#y", appID: app).outcome == .match)
        let modern = AppLinkMatcher(f)
        #expect(modern.match(E + "/modern", appID: app).outcome == .match)
        #expect(modern.match(E + "/old", appID: app).outcome == .match)
    }

    @Test func hostIsComparedCaseInsensitivelyAndMustBeTheDomain() throws {
        let m = try matcher(components: #"{"/": "/x"}"#)
        #expect(m.match("HTTPS://Example.COM/x", appID: app, domain: "example.com").outcome == .match)
        #expect(m.match("https://example.com./x", appID: app, domain: "EXAMPLE.com").outcome == .match)
        #expect(m.match("https://user@example.com:443/x", appID: app, domain: "example.com").outcome == .match)
        let elsewhere = m.match("https://www.example.com/x", appID: app, domain: "example.com")
        #expect(elsewhere.outcome == .none)
        #expect(elsewhere.explanation == #"host "www.example.com" is not the file's domain "example.com""#)
        #expect(m.match("ftp://example.com/x", appID: app).explanation == #"scheme "ftp" is not http or https"#)
    }

    @Test(arguments: [
        ("//x", AppLinkMatch.Outcome.match), ("///x", .match), ("/x//", .match), ("/y/x", .none),
    ])
    func leadingDoubleSlashCollapsesAndTrailingSlashesAreIgnored(path: String, expected: AppLinkMatch.Outcome) throws {
        #expect(try matcher(components: #"{"/": "/x/"}"#).match(E + path, appID: app).outcome == expected)
    }

    @Test func unknownKeysAreIgnoredWhenMatching() throws {
        let m = try matcher(components: #"{"/": "/x", "path": "/y", "excluded": true}"#, extra: #""future": 1, "#)
        #expect(m.match(E + "/x", appID: app).outcome == .match)
        #expect(m.match(E + "/y", appID: app).outcome == .none)
    }

    @Test func aMissingKeyMeansAnything() throws {
        let m = try matcher(components: "{}")
        #expect(m.match(E + "/any/thing?q=1#f", appID: app).outcome == .match)
        #expect(try matcher(components: #"{"?": {}}"#).match(E + "/x?a=1", appID: app).outcome == .match)
    }

    @Test func patternWithoutLeadingSlashIsAlsoTriedWithoutIt() throws {
        let m = try matcher(components: #"{"/": "x/*"}"#)
        #expect(m.match(E + "/x/1", appID: app).outcome == .match)
        #expect(m.match(E + "/x", appID: app).outcome == .match)
        #expect(m.match(E + "/y/x/1", appID: app).outcome == .none)
    }

    @Test func emptyURLPathIsSlash() throws {
        let m = try matcher(components: #"{"/": "/"}"#)
        #expect(m.match(E, appID: app).outcome == .match)
        #expect(m.match(E + "?a=1", appID: app).outcome == .match)
        #expect(try matcher(components: #"{"/": "/?*"}"#).match(E, appID: app).outcome == .none)
    }

    @Test func questionMarkIsExactlyOneCharacterEvenOutsideASCII() throws {
        let m = try matcher(components: #"{"/": "/?", "percentEncoded": false}"#)
        #expect(m.match(E + "/é", appID: app).outcome == .match)
        #expect(m.match(E + "/%C3%A9", appID: app).outcome == .match)
        #expect(m.match(E + "/ab", appID: app).outcome == .none)
        #expect(m.match(E + "/", appID: app).outcome == .none)
    }

    @Test func customSubstitutionVariablesAreOneOfTheirValues() throws {
        let m = try matcher(
            components: #"{"/": "/$(section)/$(digit)*"}"#,
            extra: #""substitutionVariables": {"section": ["shop", "news*"]}, "#)
        #expect(m.match(E + "/shop/42", appID: app).outcome == .match)
        #expect(m.match(E + "/newsroom/1", appID: app).outcome == .match)
        #expect(m.match(E + "/shopx/1", appID: app).outcome == .none)
        #expect(m.match(E + "/shop/x", appID: app).outcome == .none)
    }

    @Test func regionAndLanguageComeFromTheShippedTable() throws {
        let m = try matcher(components: #"{"/": "/$(lang)-$(region)/*"}"#)
        #expect(m.match(E + "/en-GB/shop", appID: app).outcome == .match)
        #expect(m.match(E + "/fr-CA", appID: app).outcome == .match)
        #expect(m.match(E + "/xx-GB/shop", appID: app).outcome == .none)
        #expect(m.match(E + "/en-UK/shop", appID: app).outcome == .none)  // UK is not an ISO 3166-1 code
        #expect(ISOCodes.regions.count == 249)
        #expect(ISOCodes.languages.count == 183)
    }

    @Test(arguments: [
        ("alpha", "q", true), ("alpha", "7", false), ("upper", "Q", true), ("upper", "q", false),
        ("lower", "q", true), ("alnum", "7", true), ("alnum", "-", false), ("digit", "7", true),
        ("xdigit", "F", true), ("xdigit", "g", false),
    ])
    func builtInCharacterVariablesMatchOneCharacter(name: String, text: String, matches: Bool) throws {
        let m = try matcher(components: "{\"/\": \"/$(\(name))\"}")
        #expect((m.match(E + "/" + text, appID: app).outcome == .match) == matches)
        #expect(m.match(E + "/" + text + text, appID: app).outcome == .none)
    }

    @Test func customVariablesShadowBuiltIns() throws {
        let m = try matcher(components: #"{"/": "/$(digit)"}"#, extra: #""substitutionVariables": {"digit": ["one"]}, "#)
        #expect(m.match(E + "/one", appID: app).outcome == .match)
        #expect(m.match(E + "/1", appID: app).outcome == .none)
    }

    @Test func undefinedVariableNeverMatchesAndUnclosedOneIsLiteral() throws {
        #expect(try matcher(components: #"{"/": "/$(nope)"}"#).match(E + "/x", appID: app).outcome == .none)
        #expect(try matcher(components: #"{"/": "/$(x"}"#).match(E + "/$(x", appID: app).outcome == .match)
    }

    @Test func explainNamesTheNearestRulesAndWhereTheyStopped() throws {
        let m = AppLinkMatcher(try file(##""details": [{"appIDs": ["\##(app)"], "components": [{"/": "/pub/acc"}, {"/": "/x", "#": "f"}, {"/": "/other"}]}]"##))
        let result = m.explain("https://news.example.com/pub/cc", appID: app)
        #expect(result.outcome == .none)
        #expect(result.explanation == #"no rule matched (3 rules for "ABCDE12345.com.example.app")"#)
        #expect(result.nearMisses.first
                == #"applinks.details[0].components[0] {"/": "/pub/acc"}: path "/pub/cc" differs at character 6"#)
        let fragment = m.explain(E + "/x#g", appID: app)
        #expect(fragment.nearMisses.first == ##"applinks.details[0].components[1] {"/": "/x", "#": "f"}: fragment "g" does not match"##)
        #expect(m.match(E + "/x#g", appID: app).nearMisses.isEmpty)
    }

    @Test func oldestFormKeysDetailsByAppIDInFileOrder() throws {
        let f = try file(#""apps": [], "details": {"\#(app)": {"paths": ["/a"]}, "\#(Self.other)": {"paths": ["*"]}}"#)
        #expect(f.diagnostics.isEmpty)
        #expect(f.applinks?.details.map(\.appID) == [app, Self.other])
        for platform in [AppLinkMatcher.Configuration.Platform.iOS13AndLater, .iOS9To12] {
            let m = AppLinkMatcher(f, configuration: .init(platform: platform))
            #expect(m.match(E + "/a", appID: app).outcome == .match)
            #expect(m.match(E + "/b", appID: app).outcome == .none)
            #expect(m.match(E + "/b", appID: Self.other).outcome == .match)
        }
    }

    @Test func aThousandRuleFileIsCompiledOnceAndMatchedManyTimes() throws {
        var components: [String] = []
        for i in 0..<1_000 {
            components.append("{\"/\": \"/section\(i)/*/item-$(digit)*\", \"?\": {\"ref\": \"?*\"}}")
        }
        components.append(#"{"/": "/last/*"}"#)
        let m = try matcher(components: components.joined(separator: ", "))
        for _ in 0..<200 {
            #expect(m.match(E + "/last/one", appID: app).ruleIndex == 1_000)
            #expect(m.match(E + "/section999/a/item-7x?ref=1", appID: app).ruleIndex == 999)
        }
    }
    @Test func rulesSharingTheirLeadingTextStillMatchTheRightRuleInEveryPathVariant() throws {
        // The byte-pair filter passes over rules whose literals cannot occur in the path; it must never pass over
        // the one that matches, whether the path is compared encoded, decoded or case-folded.
        var components: [String] = []
        for i in 0..<300 {
            components.append("{\"/\": \"/shop/*/item-\(i)/*\"}")
        }
        components.append(#"{"/": "/shop/*/Caf%C3%A9-*", "caseSensitive": false}"#)
        components.append(#"{"/": "/shop/*/déjà vu", "percentEncoded": false}"#)
        let m = try matcher(components: components.joined(separator: ", "))
        #expect(m.match(E + "/shop/shoes/item-299/blue", appID: app).ruleIndex == 299)
        #expect(m.match(E + "/shop/shoes/item-7", appID: app).ruleIndex == 7)
        #expect(m.match(E + "/shop/a/b/item-42/c", appID: app).ruleIndex == 42)
        #expect(m.match(E + "/shop/shoes/item-300/blue", appID: app).outcome == .none)
        #expect(m.match(E + "/SHOP/x/CAF%C3%A9-au-lait", appID: app).ruleIndex == 300)
        #expect(m.match(E + "/shop/x/d%C3%A9j%C3%A0%20vu", appID: app).ruleIndex == 301)
    }
    @Test func largeDetailsKeepFirstMatchOrderAcrossPrefixesOfEveryLength() throws {
        // Large details are looked up by literal prefix; the candidates must still be tried in file order.
        var components: [String] = []
        for i in 0..<40 {
            components.append("{\"/\": \"/p/\(i)/*\"}")
        }
        components.append(#"{"/": "/p/*", "exclude": true}"#)            // 40: shorter prefix, after the specific ones
        components.append(#"{"/": "/p/7/deep/*"}"#)                      // 41: longer prefix, hidden by rule 7
        components.append(#"{"/": "p/9/x"}"#)                             // 42: no leading slash, no prefix filter
        components.append(#"{"/": "/Q/*", "caseSensitive": false}"#)     // 43: folded variant
        components.append(#"{"?": {"catch": "?*"}}"#)                    // 44: no path at all
        components.append(#"{"/": "/late/*"}"#)                          // 45
        let m = try matcher(components: components.joined(separator: ", "))
        #expect(m.match(E + "/p/7/deep/x", appID: app).ruleIndex == 7)
        #expect(m.match(E + "/p/77", appID: app).ruleIndex == 40)
        #expect(m.match(E + "/p/77", appID: app).outcome == .exclude)
        #expect(m.match(E + "/q/anything", appID: app).ruleIndex == 43)
        #expect(m.match(E + "/late/1?catch=1", appID: app).ruleIndex == 44)
        #expect(m.match(E + "/late/1", appID: app).ruleIndex == 45)
        #expect(m.match(E + "/nowhere", appID: app).outcome == .none)
    }
}
