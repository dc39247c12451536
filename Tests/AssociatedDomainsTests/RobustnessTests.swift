import Testing
@testable import AssociatedDomains

/// Every public entry point survives any input with a diagnostic.
struct RobustnessTests {
    @Test func randomBytesNeverCrashTheReader() {
        var rng = SeededGenerator(state: 7)
        let alphabet = Array(#"{}[]":,0123456789-+.eEtrufalsn \"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xFF, 0xED, 0xA0]
        var readable = 0
        for _ in 0..<3_000 {
            let count = Int.random(in: 0..<40, using: &rng)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &rng) ?? 0 }
            let diagnostics = AppSiteAssociation.check(bytes)
            if diagnostics.allSatisfy({ $0.code != .notJSON && $0.code != .notAnObject }) { readable += 1 }
            #expect(diagnostics.allSatisfy { !$0.message.isEmpty })
        }
        #expect(readable < 3_000)
    }

    @Test func deepNestingIsRefusedWithADiagnostic() {
        let deep = String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000)
        #expect(AppSiteAssociation.check(Array(deep.utf8)).map(\.description) == [
            "error: " + String(repeating: "[0]", count: 64) + ": not valid JSON at line 1, column 65: nesting deeper than 64 arrays or objects",
        ])
        let deepObject = #"{"applinks": "# + String(repeating: #"{"a": "#, count: 10_000)
        #expect(AppSiteAssociation.check(Array(deepObject.utf8)).first?.code == .notJSON)
    }

    @Test func invalidUTF8IsReportedWhereItIs() {
        let bytes: [UInt8] = Array(#"{"applinks": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(AppSiteAssociation.check(bytes).map(\.description) == [
            "error: applinks: not valid JSON at line 1, column 16: invalid UTF-8 (byte 0x28)",
        ])
    }

    @Test func escapesAndSurrogatesDecode() throws {
        let f = try AppSiteAssociation(parsing: #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "\/caf\u00e9\ud83d\ude00"}]}]}}"#)
        #expect(f.applinks?.details.first?.components?.first?.path == "/café😀")
        #expect(AppSiteAssociation.check(Array(#"{"a": "\ud83d"}"#.utf8)).first?.message.contains("a lone UTF-16 high surrogate") == true)
    }

    @Test(arguments: [
        "", "x", "https:", "https://", "https://example.com", "https://[::1]:8/x", "https://a@b@example.com/x",
        "https://example.com/%", "https://example.com/%zz%", "https://example.com/?&&=&", "https://example.com/##",
        "mailto:a@example.com", "https://example.com/\u{0}", "HTTPS://EXAMPLE.COM:99999/X?Y#Z",
    ])
    func oddURLsGetAnAnswer(url: String) throws {
        let m = try matcher(components: ##"{"/": "*", "?": {"a": "*"}, "#": "*", "percentEncoded": false}"##)
        let result = m.explain(url, appID: app)
        #expect(!result.explanation.isEmpty)
    }

    @Test func hugeURLsAreAnsweredWithoutMatching() throws {
        let m = try matcher(components: #"{"/": "*a*a*a*a*b"}"#)
        let long = E + "/" + String(repeating: "a", count: 70_000)
        #expect(m.match(long, appID: app).explanation == "the URL is longer than 65536 bytes; it was not matched")
        let allowed = E + "/" + String(repeating: "a", count: 5_000)
        #expect(m.match(allowed, appID: app).outcome == .none)
    }

    @Test func pathologicalVariablePatternsStayPolynomial() throws {
        let m = try matcher(
            components: #"{"/": "/$(v)$(v)$(v)$(v)$(v)$(v)$(v)$(v)x"}"#,
            extra: #""substitutionVariables": {"v": ["a", "aa", "a*"]}, "#)
        #expect(m.match(E + "/" + String(repeating: "a", count: 300), appID: app).outcome == .none)
        #expect(m.match(E + "/" + String(repeating: "a", count: 300) + "x", appID: app).outcome == .match)
    }
}

struct HugePatternTests {
    /// Each use of the three-value variable is simulated as 4 tokens per URL byte: 1 000 uses (4 001 with the `/`)
    /// are within the work limit and match; 2 000 are past it, so the rule never matches (and costs nothing).
    @Test(arguments: [1_000, 2_000])
    func aPatternOfThousandsOfVariablesNeitherRecursesNorExplodes(uses: Int) throws {
        let pattern = "/" + String(repeating: "$(v)", count: uses)
        let m = try matcher(components: "{\"/\": \"\(pattern)\"}", extra: #""substitutionVariables": {"v": ["a", "aa", "*b"]}, "#)
        let rule = try #require(m.rulesByDetail.first?.first)
        #expect(rule.exceedsWorkBudget == (uses > 1_000))
        #expect(m.match(E + "/" + String(repeating: "a", count: 500), appID: app).outcome == .none)
        #expect(m.match(E + "/" + String(repeating: "b", count: uses), appID: app).outcome == (uses > 1_000 ? .none : .match))
    }
}
