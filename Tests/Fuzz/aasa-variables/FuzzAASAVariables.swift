@testable import AssociatedDomains

// The AASA compiler with substitution variables (AssociatedDomains): the input's first line is the values of a
// variable `v` (comma-separated), the second a pattern, the third a URL path. The pattern is compiled on its own and
// in a file that uses `$(v)` in many rules, then matched. The file-wide budget on alternatives x occurrences must
// hold, every use must share one compiled variable, and for the patterns the segment algorithm takes its answer
// must be the set simulation's, in steps within the pattern's work per byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAASAVariables(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    while lines.count < 3 { lines.append("") }
    let values = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let (pattern, path) = (lines[1], Array(lines[2].utf8))

    for caseInsensitive in [false, true] {
        let variables = SubstitutionVariables(["v": values], maximumAlternativeUses: 64)
        for _ in 0..<4 {
            let glob = GlobPattern(pattern, variables: variables, caseInsensitive: caseInsensitive)
            precondition(variables.alternativeUses <= 64, "the variable budget was exceeded")
            let input = caseInsensitive ? ASCII.lowered(path) : path
            let answer = glob.matches(input)
            if glob.isDeterministic {
                let reference = input.withUnsafeBufferPointer { glob.matchesBySimulation($0, 0, $0.count) }
                precondition(answer == reference, "segment matching disagrees with the set simulation")
                var steps = 0
                _ = glob.matches(input, steps: &steps)
                // Per byte the work, KMP's two steps and a step to move on; once each run's units and the tokens.
                let runs = glob.runs.reduce(0) { $0 + $1.units }
                precondition(steps <= (input.count + 1) * (glob.work + 3) + runs + glob.tokens.count,
                             "matching took more steps than the pattern's work per byte")
            }
        }
    }

    let rules = (0..<20).map { i in
        JSONValue.object([("/", .string("/\(i)" + pattern)), ("?", .object([("q", .string("$(v)"))])), ("#", .string("$(v)*"))])
    }
    let file = JSONValue.object([
        ("applinks", .object([
            ("substitutionVariables", .object([("v", .array(values.map { .string($0) }))])),
            ("details", .array([.object([
                ("appIDs", .array([.string("ABCDE12345.com.example.app")])),
                ("components", .array(rules)),
            ])])),
        ])),
    ])
    let bytes = Array(JSONWriter.text(file, style: .indented).utf8)
    _ = AppSiteAssociation.check(bytes)
    guard let matcher = try? AppLinkMatcher(parsing: bytes) else { return 0 }
    for rule in matcher.rulesByDetail.joined() {
        // One compiled list of alternatives per variable, whichever rule uses it.
        if let first = matcher.rulesByDetail[0].first?.fragment?.alternations.first,
           let mine = rule.fragment?.alternations.first {
            precondition(zip(first, mine).allSatisfy { $0 === $1 }, "a variable was compiled twice")
        }
    }
    let url = "https://example.com/19" + String(decoding: path, as: UTF8.self)
    _ = matcher.match(url, appID: "ABCDE12345.com.example.app")
    _ = matcher.explain(url + "?q=" + (values.first ?? "") + "#x", appID: "ABCDE12345.com.example.app")
    return 0
}
