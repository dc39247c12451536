import Testing
@testable import AssociatedDomains

/// Reading every AASA form and the diagnostics' exact text.
struct AppSiteAssociationTests {
    func check(_ text: String) -> [String] {
        AppSiteAssociation.check(Array(text.utf8)).map(\.description)
    }

    @Test func readsTheModernFormWithEverySection() throws {
        let f = try AppSiteAssociation(parsing: #"""
            {"applinks": {
               "defaults": {"caseSensitive": false},
               "substitutionVariables": {"s": ["a", "b"]},
               "details": [{"appIDs": ["\#(app)"],
                            "components": [{"/": "/x", "?": {"a": "1"}, "#": "f", "exclude": true,
                                            "caseSensitive": true, "percentEncoded": false, "comment": "c"}]}]},
             "webcredentials": {"apps": ["\#(app)"]},
             "appclips": {"apps": ["\#(app).Clip"]},
             "activitycontinuation": {"apps": ["\#(app)"]}}
            """#)
        #expect(f.diagnostics.isEmpty)
        let component = try #require(f.applinks?.details.first?.components?.first)
        #expect(component == AppLinkComponent(
            path: "/x", query: .items([.init(name: "a", value: "1")]), fragment: "f", exclude: true,
            caseSensitive: true, percentEncoded: false, comment: "c"))
        #expect(f.applinks?.defaults == AppLinkComponent(caseSensitive: false))
        #expect(f.applinks?.substitutionVariables == ["s": ["a", "b"]])
        #expect(f.webcredentials?.apps == [app])
        #expect(f.appclips?.apps == [app + ".Clip"])
        #expect(f.activitycontinuation?.apps == [app])
    }

    @Test func modernAppIDsPreferAppIDsOverAppID() {
        let detail = AppLinkDetail(appID: "A", appIDs: ["B", "C"])
        #expect(detail.modernAppIDs == ["B", "C"])
        #expect(AppLinkDetail(appID: "A").modernAppIDs == ["A"])
        #expect(AppLinkDetail().modernAppIDs.isEmpty)
    }

    @Test func legacyPathsConvertToComponents() {
        #expect(AppLinkComponent(legacyPath: "NOT /x") == AppLinkComponent(path: "/x", exclude: true))
        #expect(AppLinkComponent(legacyPath: "/x") == AppLinkComponent(path: "/x"))
        #expect(AppLinkComponent(legacyPath: "not /x") == AppLinkComponent(path: "not /x"))
    }

    @Test func notJSONIsAnErrorWithLineAndColumn() {
        #expect(check("{\"applinks\":\n  {\"details\": [}\n}") == [
            "error: applinks.details[0]: not valid JSON at line 2, column 16: unexpected character '}', expected a value",
        ])
        #expect(check("") == ["error: not valid JSON at line 1, column 1: unexpected end of input, expected a value"])
    }

    @Test func throwingReaderCarriesTheDiagnostics() {
        #expect(throws: AssociationError.self) { try AppSiteAssociation(parsing: "[1]") }
        do {
            _ = try AppSiteAssociation(parsing: "[1]")
        } catch {
            #expect(error.code == .unreadableFile)
            #expect(error.message == "the association file cannot be read: expected a JSON object at the top level, found an array of 1 element")
            #expect(error.diagnostics.map(\.code) == [.notAnObject])
        }
    }

    @Test func byteOrderMarkIsAnErrorButTheRestIsRead() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"applinks": {"details": []}}"#.utf8)
        #expect(AppSiteAssociation.check(bytes).map(\.description) == [
            "error: expected JSON text, found a UTF-8 byte order mark (EF BB BF) at the start; iOS cannot parse the file: save it without a BOM",
        ])
        #expect(try AppSiteAssociation(parsing: bytes).applinks?.details == [])
    }

    @Test func aSyntaxErrorAfterAByteOrderMarkCountsItsColumnFromTheFilesStart() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a": }"#.utf8)
        #expect(AppSiteAssociation.check(bytes).first { $0.code == .notJSON }?.description
            == "error: a: not valid JSON at line 1, column 8: unexpected character '}', expected a value")
    }

    @Test func filesOverAppleLimitAreAnErrorAndOverTheHardLimitAreNotRead() throws {
        let padding = String(repeating: " ", count: 131_072)
        let text = #"{"applinks": {"details": []}}"# + padding
        #expect(check(text) == [
            "error: the file is \(text.utf8.count) bytes; Apple's CDN refuses association files over 131072 bytes (128 KB), so iOS never sees it",
        ])
        let small = AppSiteAssociation.Configuration(maximumReadSize: 1_000)
        #expect(throws: AssociationError.self) { try AppSiteAssociation(parsing: Array(text.utf8), configuration: small) }
    }

    @Test func appsMustBeAnEmptyArray() {
        #expect(check(#"{"applinks": {"apps": ["\#(app)"], "details": []}}"#) == [
            #"error: applinks.apps: expected an empty array [], found an array of 1 element; iOS 9–12 reject the file otherwise (app IDs belong in details)"#,
        ])
        #expect(check(#"{"applinks": {"details": [{"appID": "\#(app)", "paths": ["/x"]}]}}"#) == [
            #"warning: applinks: expected "apps": [], found no "apps" key; iOS 9–12 require it in files that use "paths""#,
        ])
    }

    @Test(arguments: ["abc.com.x", "ABCDE1234.com.x", "abcde12345.com.x", "ABCDE12345.", "ABCDE12345..x", "ABCDE12345.com x"])
    func malformedAppIDsAreErrors(appID: String) {
        #expect(check(#"{"applinks": {"details": [{"appIDs": ["\#(appID)"], "components": []}]}}"#) == [
            #"error: applinks.details[0].appIDs[0]: expected an app ID "TEAMID.bundle.identifier" (10 characters A–Z or 0–9, a dot, then letters, digits, "-" and "."), found "\#(appID)"; iOS never matches it"#,
        ])
    }

    @Test func unknownKeysAreWarnings() {
        #expect(check(#"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "/x", "path": "/y"}]}]}, "extra": 1}"#) == [
            ##"warning: applinks.details[0].components[0].path: unknown key "path" (expected one of "/", "?", "#", "exclude", "caseSensitive", "percentEncoded", "comment"); iOS ignores it"##,
            #"warning: extra: unknown key "extra" (expected one of "applinks", "webcredentials", "appclips", "activitycontinuation"); iOS ignores it"#,
        ])
    }

    @Test(arguments: ["NOT/x", "not /x", "Not /x", "NOT  /x"])
    func notTyposAreErrors(path: String) {
        #expect(check(#"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "paths": ["\#(path)", "/y"]}]}}"#) == [
            #"error: applinks.details[0].paths[0]: expected "NOT " (upper case, one space) before an excluded path, found "\#(path)"; iOS reads it as an ordinary path pattern, not an exclusion"#,
        ])
    }

    @Test func queryInALegacyPathIsAWarning() {
        #expect(check(#"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "paths": ["/x?id=1", "/item/???"]}]}}"#) == [
            #"warning: applinks.details[0].paths[0]: expected a path, found a query in "/x?id=1"; in a path "?" matches one character and URLs' queries are not part of the path, so this never matches the query: use components with "?""#,
        ])
    }

    @Test func catchAllExclusionAndUnreachableRulesAreWarnings() {
        #expect(check(#"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "/a"}, {"/": "*", "exclude": true}, {"/": "/b"}]}]}}"#) == [
            "warning: applinks.details[0].components[1]: expected an exclusion of some URLs, found one that matches every URL; no later rule of this detail can open the app",
            "warning: applinks.details[0].components[2]: expected a reachable rule, found one after applinks.details[0].components[1], which matches every URL first; this rule is never used",
        ])
        // A rule restricted by the query is not a catch-all.
        #expect(check(#"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "*", "?": {"a": "1"}}, {"/": "/b"}]}]}}"#).isEmpty)
        // Defaults count: a file-level "#" makes "*" no catch-all; "/b" inherits the same "#", so "*" shadows it
        // (a shadowed rule, not an unreachable one).
        let text = ##"{"applinks": {"defaults": {"#": "x"}, "details": [{"appIDs": ["\##(app)"], "components": [{"/": "*"}, {"/": "/b"}]}]}}"##
        #expect(AppSiteAssociation.check(Array(text.utf8)).map(\.code) == [.shadowedRule])
    }

    @Test func undefinedVariablesAreErrors() {
        #expect(check(#"{"applinks": {"substitutionVariables": {"s": ["a"]}, "details": [{"appIDs": ["\#(app)"], "components": [{"/": "/$(s)/$(t)"}]}]}}"#) == [
            #"error: applinks.details[0].components[0]: expected a substitution variable defined in applinks.substitutionVariables or built in (alnum, alpha, digit, lang, lower, region, upper, xdigit), found "$(t)"; this rule never matches"#,
        ])
    }

    @Test func nonStringQueryPredicatesAreErrors() {
        #expect(check(#"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"?": {"a": "1", "b": true}}]}]}}"#) == [
            #"error: applinks.details[0].components[0]["?"].b: expected a pattern string, found a boolean (true); iOS then ignores the whole "?" dictionary, so this rule matches any query"#,
        ])
    }

    @Test func wrongTypesNameTheKeyPathExpectedAndFound() {
        #expect(check(#"{"applinks": {"details": [{"appIDs": "\#(app)", "components": [{"/": 3, "exclude": "yes"}]}]}}"#) == [
            #"error: applinks.details[0].appIDs: expected an array of app ID strings, found the string "ABCDE12345.com.example.app"; iOS ignores this value"#,
            #"error: applinks.details[0].components[0]["/"]: expected a pattern string, found a number (3); iOS ignores this value"#,
            #"error: applinks.details[0].components[0].exclude: expected true or false, found the string "yes"; iOS ignores this value"#,
            #"error: applinks.details[0]: expected "appIDs" (or "appID"), found none usable; this detail applies to no app"#,
        ])
    }

    @Test func defaultsBesideOnlyLegacyPathsAreAWarning() {
        #expect(check(#"{"applinks": {"apps": [], "details": [{"appID": "\#(app)", "defaults": {"caseSensitive": false}, "paths": ["/x"]}]}}"#) == [
            #"warning: applinks.details[0]: expected "components" where "defaults" apply, found only legacy "paths"; defaults are not applied to legacy paths (AppLinkMatcher.Configuration.appliesDefaultsToLegacyPaths), write these rules as components"#,
        ])
    }

    @Test func duplicateKeysAreAWarningAndTheLastWins() throws {
        let text = #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "/a", "/": "/b"}]}]}}"#
        #expect(check(text) == [#"warning: applinks.details[0].components[0]["/"]: key "/" appears more than once; the last value wins"#])
        #expect(try AppSiteAssociation(parsing: text).applinks?.details.first?.components?.first?.path == "/b")
    }

    @Test func aFileWithoutApplinksSaysSo() {
        #expect(check("{}") == [#"warning: expected an "applinks" section, found none; no URL opens an app"#])
    }
}

struct SubstitutionVariableDiagnosticsTests {
    @Test func variableNamesAndValuesAreChecked() {
        let text = #"{"applinks": {"substitutionVariables": {"a(b": ["x"], "ok": ["$(digit)", 3]}, "details": []}}"#
        #expect(AppSiteAssociation.check(Array(text.utf8)).map(\.description) == [
            #"error: applinks.substitutionVariables["a(b"]: expected a variable name without "$", "(" or ")", found "a(b"; it can never be referenced"#,
            #"error: applinks.substitutionVariables.ok[1]: expected a string, found a number (3); iOS ignores this value"#,
            #"error: applinks.substitutionVariables.ok[0]: expected a value without substitution variables, found "$(digit)"; "$(" is literal text here"#,
        ])
    }

    @Test func variableValuesAreLiteralAboutVariables() throws {
        let m = try matcher(components: #"{"/": "/$(ok)"}"#, extra: #""substitutionVariables": {"ok": ["$(digit)"]}, "#)
        #expect(m.match(E + "/$(digit)", appID: app).outcome == .match)
        #expect(m.match(E + "/7", appID: app).outcome == .none)
    }
}

struct UnreadablePartsTests {
    @Test func aComponentThatIsNotAnObjectIsReportedAndLeftOut() throws {
        let text = #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": ["/x", {"/": "/y"}]}]}}"#
        let f = try AppSiteAssociation(parsing: text)
        #expect(f.diagnostics.map(\.description) == [
            #"error: applinks.details[0].components[0]: expected a component object, found the string "/x"; iOS ignores this value"#,
        ])
        #expect(f.applinks?.details.first?.components == [AppLinkComponent(path: "/y")])
    }
}

struct UnreachableDetailTests {
    @Test func aDetailWhoseAppsAreAllCaughtEarlierIsAWarning() {
        let other = "ZZZZZ99999.com.example.other"
        let text = #"""
            {"applinks": {"details": [
              {"appIDs": ["\#(app)"], "components": [{"/": "/a"}, {"/": "*"}]},
              {"appIDs": ["\#(app)", "\#(other)"], "components": [{"/": "/b"}]},
              {"appIDs": ["\#(app)"], "components": [{"/": "/c"}]}
            ]}}
            """#
        #expect(AppSiteAssociation.check(Array(text.utf8)).map(\.description) == [
            "warning: applinks.details[2]: expected a reachable detail, found one whose apps all match applinks.details[0].components[1] first, which matches every URL; this detail is never used",
        ])
    }
}
