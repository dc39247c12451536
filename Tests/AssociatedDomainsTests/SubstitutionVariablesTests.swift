import Testing
@testable import AssociatedDomains

/// A variable is compiled once per file, and its alternatives × occurrences are budgeted: memory follows the file (a
/// 109 KB file can use a variable of 1 000 `*`-values 25 000 times), and matching time the budget.
struct SubstitutionVariablesTests {
    /// A file whose variable `v` has `values` wildcard values, used by `uses` rules.
    static func file(values: Int, uses: Int) -> [UInt8] {
        let variable = (0..<values).map { "\"\($0)*\"" }.joined(separator: ",")
        let rules = (0..<uses).map { #"{"/": "/r\#($0)/$(v)"}"# }.joined(separator: ",")
        let json = """
            {"applinks": {"substitutionVariables": {"v": [\(variable)]}, "details": [{"appIDs": ["\(app)"], "components": [\(rules)]}]}}
            """
        return Array(json.utf8)
    }

    @Test func everyOccurrenceSharesOneCompiledVariable() throws {
        let matcher = try AppLinkMatcher(parsing: Self.file(values: 50, uses: 40))
        let rules = try #require(matcher.rulesByDetail.first)
        #expect(rules.count == 40)
        let first = try #require(rules.first?.pathGlob?.alternations.first)
        #expect(first.count == 50)
        for rule in rules {
            let alternatives = try #require(rule.pathGlob?.alternations.first)
            #expect(alternatives.count == 50)
            #expect(zip(alternatives, first).allSatisfy { $0 === $1 })
        }
        #expect(matcher.match(E + "/r39/7abc", appID: app).outcome == .match)
        #expect(matcher.match(E + "/r39/x", appID: app).outcome == .none)
    }

    @Test func caseFoldedUsesCompileTheirOwnCopyOnce() {
        let variables = SubstitutionVariables(["v": ["A*", "b?"]])
        let folded = GlobPattern("/$(v)/$(v)", variables: variables, caseInsensitive: true)
        let plain = GlobPattern("/$(v)", variables: variables, caseInsensitive: false)
        #expect(folded.alternations[0][0] === folded.alternations[1][0])
        #expect(folded.alternations[0][0] !== plain.alternations[0][0])
        #expect(folded.matches(Array("/ax/bc".utf8)))
        #expect(!plain.matches(Array("/ax".utf8)))
        #expect(variables.alternativeUses == 6)
    }

    @Test func occurrencesPastTheFileBudgetNeverMatchAndAreReportedOnce() throws {
        let limit = SubstitutionVariables.maximumAlternativeUses
        // 1 000 values: the budget holds 100 uses; the 101st and later rules are refused.
        let bytes = Self.file(values: 1_000, uses: limit / 1_000 + 3)
        let matcher = try AppLinkMatcher(parsing: bytes)
        #expect(matcher.match(E + "/r99/5", appID: app).outcome == .match)
        #expect(matcher.match(E + "/r100/5", appID: app).outcome == .none)
        #expect(matcher.match(E + "/r102/5", appID: app).outcome == .none)
        let findings = AppSiteAssociation.check(bytes).filter { $0.code == .tooManyVariableAlternatives }
        #expect(findings.map(\.keyPath) == ["applinks.details[0].components[100]"])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.message.contains("within \(limit) alternatives per file") == true)
        #expect(findings.first?.message.contains("this rule (and 2 later rules) never matches") == true)
    }

    @Test func aFileWithinTheBudgetHasNoFinding() {
        let bytes = Self.file(values: 1_000, uses: SubstitutionVariables.maximumAlternativeUses / 1_000)
        #expect(!AppSiteAssociation.check(bytes).contains { $0.code == .tooManyVariableAlternatives })
    }

    /// A file whose variable `v` has values of two lengths (so its patterns are simulated), with one rule
    /// `/r0/$(v)?` and then `rules` rules `/rN/$(v)` followed by `questions` `?`.
    static func simulatedFile(questions: Int, rules: Int) -> [UInt8] {
        let tail = String(repeating: "?", count: questions)
        let components = [#"{"/": "/r0/$(v)?"}"#] + (1...rules).map { #"{"/": "/r\#($0)/$(v)\#(tail)"}"# }
        let json = """
            {"applinks": {"substitutionVariables": {"v": ["a", "bb"]}, "details": [{"appIDs": ["\(app)"], "components": [\(components.joined(separator: ","))]}]}}
            """
        return Array(json.utf8)
    }

    /// A simulated pattern costs one step per token per URL byte: past 4 096 a pattern is refused, and the file says
    /// so once, at the first such rule, with how many follow.
    @Test func aPatternPastTheWorkLimitNeverMatchesAndIsReportedOnce() throws {
        let limit = SubstitutionVariables.maximumPatternWork
        // "/rN/", $(v) and the `?`s: limit + 1 tokens.
        let bytes = Self.simulatedFile(questions: limit - 1, rules: 3)
        let matcher = try AppLinkMatcher(parsing: bytes)
        let path = "/r1/bb" + String(repeating: "x", count: limit - 1)
        #expect(matcher.match(E + "/r0/ax", appID: app).outcome == .match)
        #expect(matcher.match(E + path, appID: app).outcome == .none)
        let findings = AppSiteAssociation.check(bytes).filter { $0.code == .tooMuchMatchingWork }
        #expect(findings.map(\.keyPath) == ["applinks.details[0].components[1]"])
        #expect(findings.first?.severity == .error)
        #expect(findings.first?.message.contains("at most \(limit) steps per URL character each") == true)
        #expect(findings.first?.message.contains("this rule (and 2 later rules) never matches") == true)
    }

    @Test func aPatternJustWithinTheWorkLimitMatches() throws {
        let limit = SubstitutionVariables.maximumPatternWork
        let bytes = Self.simulatedFile(questions: limit - 2, rules: 1)
        let matcher = try AppLinkMatcher(parsing: bytes)
        let glob = try #require(matcher.rulesByDetail.first?[1].pathGlob)
        #expect(glob.work == limit)
        #expect(!glob.exceedsWorkBudget)
        let x = String(repeating: "x", count: limit - 2)
        #expect(matcher.match(E + "/r1/bb" + x, appID: app).outcome == .match)
        #expect(matcher.match(E + "/r1/a" + x, appID: app).outcome == .match)
        #expect(matcher.match(E + "/r1/a" + x + "x", appID: app).outcome == .none)
        #expect(!AppSiteAssociation.check(bytes).contains { $0.code == .tooMuchMatchingWork })
    }

    /// The file's patterns together: once their work would pass the file's budget, later ones are refused.
    @Test func patternsPastTheFileWorkBudgetNeverMatch() {
        // `a?b` between stars is tried at each place: three units, three steps a byte.
        let variables = SubstitutionVariables([:], maximumMatchingWork: 30)
        let globs = (0..<12).map { _ in GlobPattern("/*a?b*", variables: variables, caseInsensitive: false) }
        #expect(globs.map(\.work) == Array(repeating: 3, count: 12))
        #expect(globs.map { $0.matches(Array("/xaxbx".utf8)) } == Array(repeating: true, count: 10) + [false, false])
        #expect(variables.matchingWork == 30)
        #expect(variables.refusedPatterns == 2)
        // Patterns that cost one pass (a literal between stars, a fixed run at the end) are free.
        #expect(GlobPattern("/*abc*xyz", variables: variables, caseInsensitive: false).matches(Array("/abcxyz".utf8)))
    }

    @Test func shortLiteralValuesAreOneSetAndCostNoBudget() {
        let variables = SubstitutionVariables(["v": ["en", "fr"]], maximumAlternativeUses: 1)
        for _ in 0..<10 {
            #expect(GlobPattern("/$(v)", variables: variables, caseInsensitive: false).matches(Array("/fr".utf8)))
        }
        #expect(variables.refusedOccurrences == 0)
    }
}
