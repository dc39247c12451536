import Foundation
import Testing
@testable import AssociatedDomains

/// A deliberately naive matcher written straight from the rules in DESIGN.md: Characters, recursion, no
/// compilation, no byte tricks. The table test checks the real matcher against it.
enum ReferenceMatcher {
    static let builtIns: [String: [String]] = [
        "digit": (0...9).map(String.init),
        "alpha": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".map(String.init),
        "upper": "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map(String.init),
        "lower": "abcdefghijklmnopqrstuvwxyz".map(String.init),
        "alnum": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".map(String.init),
        "xdigit": "0123456789abcdefABCDEF".map(String.init),
        "region": ["US", "GB", "FR", "DE"],
        "lang": ["en", "fr", "de"],
    ]

    static func fold(_ s: String) -> String {
        String(s.map { $0.isASCII && $0.isUppercase ? Character($0.lowercased()) : $0 })
    }

    static func decode(_ s: String) -> String {
        var bytes: [UInt8] = []
        let u = Array(s.utf8)
        var i = 0
        while i < u.count {
            if u[i] == UInt8(ascii: "%"), i + 2 < u.count,
               let v = UInt8(String(decoding: u[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                bytes.append(v)
                i += 3
            } else {
                bytes.append(u[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Anchored glob, recursive backtracking over Characters.
    static func glob(_ p: [Character], _ s: [Character], _ vars: [String: [String]], variablesAllowed: Bool = true,
                     foldValues: Bool) -> Bool {
        guard let first = p.first else { return s.isEmpty }
        let rest = Array(p.dropFirst())
        switch first {
        case "*":
            for k in 0...s.count where glob(rest, Array(s.dropFirst(k)), vars, variablesAllowed: variablesAllowed, foldValues: foldValues) {
                return true
            }
            return false
        case "?":
            return !s.isEmpty && glob(rest, Array(s.dropFirst()), vars, variablesAllowed: variablesAllowed, foldValues: foldValues)
        case "$" where variablesAllowed && rest.first == "(":
            if let close = rest.firstIndex(of: ")"), !rest[1..<close].contains("$"), !rest[1..<close].contains("(") {
                let name = String(rest[1..<close])
                let after = Array(rest[(close + 1)...])
                guard let values = vars[name] ?? builtIns[name] else { return false }
                for value in values {
                    let v = foldValues ? fold(value) : value
                    // Try every split of s: the value (a glob itself) must match the head exactly.
                    for k in 0...s.count
                    where glob(Array(v), Array(s.prefix(k)), vars, variablesAllowed: false, foldValues: foldValues)
                        && glob(after, Array(s.dropFirst(k)), vars, foldValues: foldValues) {
                        return true
                    }
                }
                return false
            }
            fallthrough
        default:
            return s.first == first && glob(rest, Array(s.dropFirst()), vars, variablesAllowed: variablesAllowed, foldValues: foldValues)
        }
    }

    static func normalisePath(_ path: String) -> String {
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        if p.isEmpty || p == "/" { return "/" }
        while p.hasPrefix("//") { p.removeFirst() }
        return p
    }

    struct Rule {
        var path: String?
        var query: String?
        var items: [(String, String)]?
        var fragment: String?
        var exclude = false
        var caseSensitive = true
        var percentEncoded = true
    }

    static func outcome(_ rule: Rule, url: String, vars: [String: [String]]) -> AppLinkMatch.Outcome {
        // Split at the first '#', then at the first '?' before it.
        var rest = Substring(url.dropFirst("https://example.com".count))
        var fragment: String?
        if let h = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: h)...])
            rest = rest[..<h]
        }
        var query: String?
        if let q = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: q)...])
            rest = rest[..<q]
        }
        func prepare(_ s: String) -> String {
            var v = rule.percentEncoded ? s : decode(s)
            if !rule.caseSensitive { v = fold(v) }
            return v
        }
        func g(_ pattern: String, _ subject: String) -> Bool {
            glob(Array(rule.caseSensitive ? pattern : fold(pattern)), Array(subject), vars, foldValues: !rule.caseSensitive)
        }
        if let pattern = rule.path {
            let path = normalisePath(prepare(String(rest)))
            var patterns = [pattern == "" ? "" : normalisePath(pattern)]
            if patterns[0].hasSuffix("/*") {
                let parent = String(patterns[0].dropLast(2))
                patterns.append(parent.isEmpty ? "" : normalisePath(parent))
            }
            var subjects = [path]
            if !pattern.hasPrefix("/") && path.hasPrefix("/") { subjects.append(String(path.dropFirst())) }
            if !patterns.contains(where: { p in subjects.contains { g(p, $0) } }) { return .none }
        }
        if let q = rule.query, !g(q, prepare(query ?? "")) { return .none }
        if let items = rule.items {
            let pairs: [(String, String)] = (query ?? "").split(separator: "&").map { piece in
                if let eq = piece.firstIndex(of: "=") {
                    return (String(piece[..<eq]), String(piece[piece.index(after: eq)...]))
                }
                return (String(piece), "")
            }
            for (name, pattern) in items {
                let wanted = rule.caseSensitive ? name : fold(name)
                let values = pairs.filter { prepare($0.0) == wanted }.map { prepare($0.1) }
                if values.isEmpty {
                    if !g(pattern, "") { return .none }
                } else if !values.allSatisfy({ g(pattern, $0) }) {
                    return .none
                }
            }
        }
        if let f = rule.fragment, !g(f, prepare(fragment ?? "")) { return .none }
        return rule.exclude ? .exclude : .match
    }
}

/// SplitMix64: a seeded generator so the table is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct ReferenceMatcherTests {
    static let variables: [String: [String]] = ["v": ["a", "b*", "ab"], "w": ["x", "yy"], "e": []]

    static func jsonString(_ s: String) -> String {
        var out = "\""
        for c in s {
            if c == "\\" || c == "\"" { out.append("\\") }
            out.append(c)
        }
        return out + "\""
    }

    static func randomText(_ pieces: [String], maxCount: Int, _ rng: inout SeededGenerator) -> String {
        let count = Int.random(in: 0...maxCount, using: &rng)
        return (0..<count).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
    }

    /// A seed new on each run (`ULK_PROPERTY_SEED` replays one), so that CI keeps exploring beyond the fixed table.
    static let runSeed: UInt64 = ProcessInfo.processInfo.environment["ULK_PROPERTY_SEED"].flatMap { UInt64($0) }
        ?? UInt64.random(in: 1...UInt64.max)

    /// 2026 is the table every run checks; the second seed changes per run and a failure names it.
    @Test(arguments: [2026, runSeed])
    // Async, yielding as it goes: under ThreadSanitizer it computes for tens of seconds, and holding one of the
    // cooperative threads (one per core) that long would make the deadline tests running beside it late.
    func matcherAgreesWithTheNaiveReferenceOnGeneratedPairs(seed: UInt64) async throws {
        var rng = SeededGenerator(state: seed)
        let patternPieces = ["a", "b", "A", "/", "/", "*", "?", "$(v)", "$(w)", "$(digit)", "$(upper)", "$(e)", "é",
                             "%20", " ", "$(", "1"]
        let pathPieces = ["a", "b", "B", "/", "/", "1", "7", "x", "yy", "é", "%20", "%C3%A9", " ", "%2F", "$("]
        let variablesJSON = "\"substitutionVariables\": {"
            + ReferenceMatcherTests.variables.map { "\"\($0.key)\": [" + $0.value.map(Self.jsonString).joined(separator: ", ") + "]" }
                .joined(separator: ", ") + "}, "
        var compared = 0
        var outcomes: [AppLinkMatch.Outcome: Int] = [:]
        for round in 0..<700 {
            if round % 16 == 0 { await Task.yield() }
            var rule = ReferenceMatcher.Rule()
            var keys: [String] = []
            let usePath = Int.random(in: 0..<10, using: &rng) < 9
            if usePath {
                var p = Self.randomText(patternPieces, maxCount: 5, &rng)
                if Bool.random(using: &rng) { p = "/" + p }
                rule.path = p
                keys.append("\"/\": " + Self.jsonString(p))
            }
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                let q = Self.randomText(["a", "=", "1", "&", "*", "?", "b"], maxCount: 4, &rng)
                rule.query = q
                keys.append("\"?\": " + Self.jsonString(q))
            case 1:
                let name = ["a", "A", "b"].randomElement(using: &rng) ?? "a"
                let value = Self.randomText(["1", "*", "?", "x", "$(digit)"], maxCount: 3, &rng)
                rule.items = [(name, value)]
                keys.append("\"?\": {" + Self.jsonString(name) + ": " + Self.jsonString(value) + "}")
            default: break
            }
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let f = Self.randomText(["t", "*", "?", "%20"], maxCount: 3, &rng)
                rule.fragment = f
                keys.append("\"#\": " + Self.jsonString(f))
            }
            rule.exclude = Int.random(in: 0..<5, using: &rng) == 0
            rule.caseSensitive = Bool.random(using: &rng)
            rule.percentEncoded = Bool.random(using: &rng)
            keys.append("\"exclude\": \(rule.exclude)")
            keys.append("\"caseSensitive\": \(rule.caseSensitive)")
            keys.append("\"percentEncoded\": \(rule.percentEncoded)")
            let m = try matcher(components: "{" + keys.joined(separator: ", ") + "}", extra: variablesJSON)
            for _ in 0..<4 {
                var path = Self.randomText(pathPieces, maxCount: 5, &rng)
                if !path.isEmpty && !path.hasPrefix("/") { path = "/" + path }
                var url = "https://example.com" + path
                if Bool.random(using: &rng) { url += "?" + Self.randomText(["a=1", "A=1", "b=", "a=x", "&", "a=7"], maxCount: 3, &rng) }
                if Int.random(in: 0..<3, using: &rng) == 0 { url += "#" + Self.randomText(["t", "T", "%20"], maxCount: 2, &rng) }
                let expected = ReferenceMatcher.outcome(rule, url: url, vars: ReferenceMatcherTests.variables)
                let actual = m.match(url, appID: app).outcome
                #expect(actual == expected, "seed \(seed): rule {\(keys.joined(separator: ", "))} url \(url)")
                compared += 1
                outcomes[actual, default: 0] += 1
            }
        }
        #expect(compared == 2800)
        // The table is only meaningful if it exercises every outcome.
        #expect((outcomes[.match] ?? 0) > 100)
        #expect((outcomes[.none] ?? 0) > 100)
        #expect((outcomes[.exclude] ?? 0) > 10)
    }
}

/// Several rules per file: the first rule the reference says decides must be the one the matcher reports.
struct ReferenceMatcherMultiRuleTests {
    @Test func firstDecidingRuleAgreesWithTheReferenceOnGeneratedFiles() throws {
        var rng = SeededGenerator(state: 99)
        let pieces = ["/", "/", "a", "b", "ab", "*", "?", "$(digit)", "A"]
        var decidedByLaterRule = 0
        for _ in 0..<300 {
            let count = Int.random(in: 1...6, using: &rng)
            var rules: [ReferenceMatcher.Rule] = []
            var json: [String] = []
            for _ in 0..<count {
                var rule = ReferenceMatcher.Rule()
                let path = "/" + ReferenceMatcherTests.randomText(pieces, maxCount: 4, &rng)
                rule.path = path
                rule.exclude = Int.random(in: 0..<3, using: &rng) == 0
                rule.caseSensitive = Int.random(in: 0..<4, using: &rng) != 0
                var keys = ["\"/\": " + ReferenceMatcherTests.jsonString(path), "\"exclude\": \(rule.exclude)",
                            "\"caseSensitive\": \(rule.caseSensitive)"]
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    rule.items = [("a", "1")]
                    keys.append(#""?": {"a": "1"}"#)
                }
                rules.append(rule)
                json.append("{" + keys.joined(separator: ", ") + "}")
            }
            let m = try matcher(components: json.joined(separator: ", "))
            for _ in 0..<5 {
                let path = "/" + ReferenceMatcherTests.randomText(["a", "b", "/", "1", "A", "B"], maxCount: 5, &rng)
                let url = "https://example.com" + path + (Bool.random(using: &rng) ? "?a=1" : "")
                var expectedIndex: Int?
                var expected = AppLinkMatch.Outcome.none
                for (i, rule) in rules.enumerated() {
                    let outcome = ReferenceMatcher.outcome(rule, url: url, vars: [:])
                    if outcome != .none {
                        expected = outcome
                        expectedIndex = i
                        break
                    }
                }
                let actual = m.match(url, appID: app)
                #expect(actual.outcome == expected, "rules \(json) url \(url)")
                #expect(actual.ruleIndex == expectedIndex, "rules \(json) url \(url)")
                if let expectedIndex, expectedIndex > 0 { decidedByLaterRule += 1 }
            }
        }
        #expect(decidedByLaterRule > 50)
    }
}
