import Testing
@testable import AssociatedDomains

/// A variable is compiled once per file, and its alternatives × occurrences are budgeted: a 109 KB file (a variable
/// of 1 000 `*`-values used 25 000 times) took 13.7 GB when every occurrence compiled every value again.
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

    @Test func shortLiteralValuesAreOneSetAndCostNoBudget() {
        let variables = SubstitutionVariables(["v": ["en", "fr"]], maximumAlternativeUses: 1)
        for _ in 0..<10 {
            #expect(GlobPattern("/$(v)", variables: variables, caseInsensitive: false).matches(Array("/fr".utf8)))
        }
        #expect(variables.refusedOccurrences == 0)
    }
}
