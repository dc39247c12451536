import Testing
@testable import AssociatedDomains

/// Matching one URL costs the file's rules plus what each rule reads of the URL, within
/// the matcher's budget (`AppLinkMatcher.Configuration.maximumMatchingSteps`); work is counted in the matcher's steps (about
/// one URL byte read by one pattern), never timed.
struct MatchingBudgetTests {
    /// `count` rules `/*x*N*`: no literal prefix and one-byte literals, so no filter passes over any of them and each
    /// reads the whole path looking for its number.
    static func starRules(_ count: Int) -> String {
        (0..<count).map { #"{"/": "/*x*\#($0 + 1_000)*"}"# }.joined(separator: ",")
    }

    /// A path of about `length` bytes that holds `x` and every pair of digits (so the rules' byte pairs are all
    /// there) but none of the rules' four-digit numbers.
    static func url(pathLength length: Int) -> String {
        let pairs = (0..<100).map { ($0 < 10 ? "0" : "") + "\($0)/" }.joined()
        return E + "/x/" + String(repeating: pairs, count: max(1, length / pairs.utf8.count))
    }

    /// The default configuration with another matching budget.
    static func budget(_ steps: Int) -> AppLinkMatcher.Configuration {
        var configuration = AppLinkMatcher.Configuration()
        configuration.maximumMatchingSteps = steps
        return configuration
    }

    static func steps(_ m: AppLinkMatcher, _ url: String, explain: Bool = false) -> (AppLinkMatch, Int) {
        var steps = 0
        let answer = m.evaluate(url, appID: app, domain: nil, collectNearMisses: explain, steps: &steps)
        return (answer, steps)
    }

    @Test func stepsGrowWithRulesTimesWhatEachReadsAndNothingMore() throws {
        let url = Self.url(pathLength: 3_000)
        let (small, smallSteps) = Self.steps(try matcher(components: Self.starRules(100)), url)
        let (large, largeSteps) = Self.steps(try matcher(components: Self.starRules(200)), url)
        #expect(small.outcome == .none && large.outcome == .none)
        #expect(small.explanation == "no rule matched (100 rules for \"\(app)\")")
        // Twice the rules, twice the work: each rule reads the path about once (KMP, at most two steps a byte).
        let ratio = Double(largeSteps) / Double(smallSteps)
        #expect(ratio > 1.8 && ratio < 2.2, "\(smallSteps) then \(largeSteps) steps")
        #expect(largeSteps <= 200 * (2 * 3_010 + 16), "\(largeSteps) steps")
    }

    @Test func aURLPastTheBudgetIsNotMatchedAndSaysWhy() throws {
        let budget = 200_000
        let m = try matcher(components: Self.starRules(1_000), configuration: Self.budget(budget))
        let url = Self.url(pathLength: 10_000)
        for explain in [false, true] {
            let (answer, steps) = Self.steps(m, url, explain: explain)
            #expect(answer.outcome == .none)
            #expect(answer.explanation == "not matched: this URL against the 1000 rules for \"\(app)\" needs more than "
                + "200000 matching steps (the matcher's budget); shorten the URL, or give the rules literal text that "
                + "tells them apart")
            #expect(answer.nearMisses.isEmpty)
            // The budget, plus the one rule being matched when it ran out (one pass over the path).
            #expect(steps <= budget + 2 * 10_010 + 16, "\(steps) steps")
        }
        // Within the budget the same file decides: a rule whose number is in the path matches.
        #expect(m.match(E + "/x1500", appID: app).keyPath == "applinks.details[0].components[500]")
    }

    @Test func theDefaultBudgetAnswersTheLargestURLAgainstThousandsOfRules() throws {
        let m = try matcher(components: Self.starRules(4_000))
        let url = Self.url(pathLength: 60_000)
        let (answer, steps) = Self.steps(m, url, explain: true)
        #expect(answer.explanation.hasPrefix("not matched: this URL against the 4000 rules"))
        #expect(steps <= m.configuration.maximumMatchingSteps + 2 * 60_010 + 16)
    }

    @Test func explainKeepsTheThreeNearestRulesBestFirst() throws {
        let m = try matcher(components: [
            #"{"/": "/a/b/c/d"}"#, #"{"/": "/a/b/x"}"#, #"{"/": "/q", "?": {"k": "1"}}"#, #"{"/": "/a/b/c/e"}"#,
            #"{"/": "/z"}"#, #"{"/": "/a/b/c/f"}"#,
        ].joined(separator: ","))
        let answer = m.explain(E + "/a/b/c/g", appID: app)
        #expect(answer.outcome == .none)
        #expect(answer.nearMisses == [
            #"applinks.details[0].components[0] {"/": "/a/b/c/d"}: path "/a/b/c/g" differs at character 8"#,
            #"applinks.details[0].components[3] {"/": "/a/b/c/e"}: path "/a/b/c/g" differs at character 8"#,
            #"applinks.details[0].components[5] {"/": "/a/b/c/f"}: path "/a/b/c/g" differs at character 8"#,
        ])
        let query = m.explain(E + "/q?k=2", appID: app)
        #expect(query.nearMisses.first == #"applinks.details[0].components[2] {"/": "/q", "?": {"k": "1"}}: query item "k" does not match (a missing item is "")"#)
    }

    /// A rule naming a query item reads only the items of that name: a URL of many other items costs each rule a
    /// step, not a step per item.
    @Test func queryItemRulesReadOnlyTheItemsTheyName() throws {
        let rules = (0..<300).map { #"{"/": "/q", "?": {"k\#($0)": "1"}}"# }.joined(separator: ",")
        let m = try matcher(components: rules)
        let url = E + "/q?" + (0..<3_000).map { "a\($0)=2" }.joined(separator: "&")
        let (answer, steps) = Self.steps(m, url)
        #expect(answer.outcome == .none)
        #expect(steps < 300 * 40, "\(steps) steps")
        #expect(m.match(E + "/q?a=1&k7=1", appID: app).keyPath == "applinks.details[0].components[7]")
    }
}
