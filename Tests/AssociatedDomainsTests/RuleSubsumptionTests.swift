import Testing
@testable import AssociatedDomains

/// A rule that an earlier rule of its detail already decides is reported, never wrongly, and the generator writes
/// narrower rules before the broader rules that would hide them.
struct RuleSubsumptionTests {
    typealias Generator = SeededGenerator

    func check(_ components: String) -> [String] {
        let text = #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": \#(components)}]}}"#
        return AppSiteAssociation.check(Array(text.utf8)).map(\.description)
    }

    func rule(_ path: String, caseSensitive: Bool = true) -> CompiledRule {
        CompiledRule(
            AppLinkComponent(path: path, caseSensitive: caseSensitive), detailIndex: 0, ruleIndex: 0, keyPath: "",
            source: "", variables: [:], foldsQueryItemNames: true, ignoresQueryAndFragment: false)
    }

    @Test func anExclusionAfterTheIncludeItCarvesOutOfSaysPutTheExclusionFirst() {
        #expect(check(##"[{"/": "/products/*"}, {"/": "/products/internal/*", "exclude": true}]"##) == [
            "warning: applinks.details[0].components[1]: expected an exclusion that some URL reaches, found one after applinks.details[0].components[0], which matches every URL this one matches and opens the app for them first; this exclusion never applies: put the exclusion first",
        ])
        #expect(check(##"[{"/": "/products/internal/*", "exclude": true}, {"/": "/products/*"}]"##).isEmpty)
    }

    @Test func anIncludeAfterABroaderExclusionAndARedundantRuleAreReportedToo() {
        #expect(check(##"[{"/": "/a/*", "exclude": true}, {"/": "/a/b"}]"##) == [
            "warning: applinks.details[0].components[1]: expected a rule that some URL reaches, found one after applinks.details[0].components[0], which matches every URL this one matches and keeps them on the web first; this rule never opens the app: put the narrower rule first",
        ])
        #expect(check(##"[{"/": "/a/*"}, {"/": "/a/?/c", "?": {"k": "v"}, "#": "f"}]"##) == [
            "warning: applinks.details[0].components[1]: expected a rule that some URL reaches, found one after applinks.details[0].components[0], which matches every URL this one matches and decides them the same way first; this rule changes nothing: remove it, or put the narrower rule first",
        ])
    }

    @Test func theQueryAndFragmentOfTheEarlierRuleMustCoverTheLaterOnes() {
        // Each later rule matches some URL the earlier one does not.
        let notCovered = [
            ##"[{"/": "/x/*", "?": {"a": "1"}}, {"/": "/x/y", "exclude": true}]"##,
            ##"[{"/": "/x/*", "?": {"a": "1*"}}, {"/": "/x/y", "?": {"a": "*"}, "exclude": true}]"##,
            ##"[{"/": "/x/*", "?": "a=*"}, {"/": "/x/y", "?": {"a": "1"}, "exclude": true}]"##,
            ##"[{"/": "/x/*", "#": "f"}, {"/": "/x/y", "exclude": true}]"##,
            ##"[{"/": "/x/*", "caseSensitive": false}, {"/": "/x/y", "exclude": true}]"##,
            ##"[{"/": "/x/*", "percentEncoded": false}, {"/": "/x/y", "exclude": true}]"##,
        ]
        for text in notCovered { #expect(check(text).isEmpty, "\(text)") }
        let covered = [
            ##"[{"/": "/x/*", "?": {"a": "1*"}}, {"/": "/x/y", "?": {"a": "12", "b": "*"}, "exclude": true}]"##,
            ##"[{"/": "/x/*", "?": "a=*"}, {"/": "/x/y", "?": "a=?", "exclude": true}]"##,
            ##"[{"/": "/x/*", "?": {"a": "*"}, "#": "*"}, {"/": "/x/y", "exclude": true}]"##,
        ]
        for text in covered { #expect(check(text).count == 1, "\(text)") }
    }

    @Test(arguments: [
        ("/products/*", "/product*", false), ("/a/*", "/a*", false), ("/a/*", "/a", true), ("/a/*", "/a/*", true),
        ("/a/?", "/a/b", true), ("/a/?", "/a/*", false), ("/a/*/c", "/a/b/c", true), ("/a/*/c", "/a/c", false),
        ("/*/x", "/a/*/x", true), ("/a*b", "/a?b", true), ("/a?b", "/a*b", false), ("/a", "/a/*", false),
        ("/a/$(digit)", "/a/1", false), ("/a/?", "/a/é", false),
    ])
    func pathCoveringFollowsTheGlobsAndMissesRatherThanGuesses(earlier: String, later: String, covers: Bool) {
        #expect(RuleSubsumption.covers(rule(earlier), rule(later)) == covers)
    }

    /// Property (soundness): whenever the earlier glob is said to cover the later one, every string built from the
    /// later glob (its `?` and `*` filled at random) matches the earlier glob.
    @Test func aCoveringGlobMatchesEveryStringTheCoveredGlobMatches() {
        var rng = Generator(state: 0xC0DE_0011)
        let pieces = ["a", "b", "/", "?", "*", "ab", "é"]
        let fill = ["a", "b", "/", "é", "", "ba/"]
        var covering = 0
        for _ in 0..<3_000 {
            func glob() -> String {
                (0..<Int.random(in: 0...5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            }
            let (outerText, innerText) = (glob(), glob())
            let outer = GlobPattern(outerText, variables: [:], caseInsensitive: false)
            let inner = GlobPattern(innerText, variables: [:], caseInsensitive: false)
            guard RuleSubsumption.globCovers(outer, inner) else { continue }
            covering += 1
            for _ in 0..<20 {
                var sample = ""
                for character in innerText {
                    switch character {
                    case "?": sample += ["a", "b", "/", "é"].randomElement(using: &rng)!
                    case "*": sample += (0..<Int.random(in: 0...3, using: &rng)).map { _ in fill.randomElement(using: &rng)! }.joined()
                    default: sample.append(character)
                    }
                }
                #expect(outer.matches(Array(sample.utf8)), "'\(outerText)' covers '\(innerText)' but not '\(sample)'")
            }
        }
        #expect(covering > 150)
    }

    @Test func theGeneratorWritesTheExclusionBeforeTheIncludeItCarvesOutOf() throws {
        let rules = AppLinkRuleSet(appIDs: [app], rules: [
            .include("/products/*"), .include("/help"), .exclude("/products/internal/*"), .include("/products/internal/public"),
        ])
        #expect(rules.orderedRules == [
            .include("/products/internal/public"), .exclude("/products/internal/*"), .include("/products/*"), .include("/help"),
        ])
        for format in AppLinkRuleSet.Format.allCases {
            let text = try rules.appSiteAssociation(format: format)
            #expect(AppSiteAssociation.check(Array(text.utf8)).isEmpty, "\(format)")
            let matcher = try AppLinkMatcher(parsing: Array(text.utf8))
            #expect(matcher.match("https://example.com/products/internal/1", appID: app).outcome == .exclude)
            #expect(matcher.match("https://example.com/products/internal/public", appID: app).outcome == .match)
            #expect(matcher.match("https://example.com/products/1", appID: app).outcome == .match)
        }
    }

    @Test func theGeneratorKeepsTheGivenOrderWhenNothingIsHidden() {
        let given: [AppLinkRuleSet.Rule] = [.exclude("/account/*"), .include("/products/*"), .include("/products/1"), .exclude("/x*")]
        #expect(AppLinkRuleSet(appIDs: [app], rules: given).orderedRules == given)
    }

    /// Comparing two rules costs the product of their lengths, so four 32 KB rules `/*a{32000}b*` would cost billions
    /// of steps. A pair over the per-pair bound is not compared (a miss, never a false warning).
    @Test func longRulesAreNotComparedPastThePerPairBound() {
        func glob(_ length: Int) -> GlobPattern {
            GlobPattern("/*" + String(repeating: "a", count: length) + "b*", variables: [:], caseInsensitive: false)
        }
        #expect(RuleSubsumption.globCovers(glob(1_000), glob(1_000)))
        let side = Int(Double(RuleSubsumption.maximumCellsPerPair).squareRoot())
        #expect(!RuleSubsumption.globCovers(glob(side), glob(side)))
        let file = #"[{"/": "/*\#(String(repeating: "a", count: side))b*"}, {"/": "/*\#(String(repeating: "a", count: side))b*"}]"#
        #expect(check(file).isEmpty)
    }
}
