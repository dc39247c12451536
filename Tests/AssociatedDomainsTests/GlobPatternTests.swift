import Testing
@testable import AssociatedDomains

/// The glob matcher: linear in the URL for the literal runs a hostile file makes long, and the same answers as the
/// set simulation (which any pattern can use) for every pattern the segment algorithm takes.
struct GlobPatternTests {
    /// A literal between two stars is found in one pass (KMP), whatever its length: at most two steps a byte of the
    /// URL. Tried at every place, `/*a{16000}b*` against 32 000 `a`s would compare up to the whole literal each time.
    @Test(arguments: [8_000, 32_000])
    func aLongLiteralBetweenStarsCostsTheURLNotThePatternTimesTheURL(size: Int) {
        let glob = GlobPattern("/*" + String(repeating: "a", count: size / 2) + "b*", variables: [:], caseInsensitive: false)
        let url = Array(("/" + String(repeating: "a", count: size)).utf8)
        var steps = 0
        #expect(!glob.matches(url, steps: &steps))
        #expect(steps <= 2 * url.count + glob.tokens.count, "\(steps) steps for \(url.count) bytes")
    }

    @Test(arguments: [
        ("/*abc*", "/xxabcxx", true), ("/*abc*", "/xxabxcxx", false), ("/*aab", "/aaab", true),
        ("/a*b*c", "/abc", true), ("/a*b*c", "/acb", false), ("/*ab*ab", "/abab", true), ("/*ab*ab", "/aba", false),
        ("*é*", "/xéy", true), ("/?*", "/é", true), ("/*\u{A9}", "/\u{E9}\u{A9}", true),
    ])
    func literalRunsAreFoundWhereTheyStart(pattern: String, path: String, matches: Bool) {
        let glob = GlobPattern(pattern, variables: [:], caseInsensitive: false)
        #expect(glob.matches(Array(path.utf8)) == matches)
        #expect(Array(path.utf8).withUnsafeBufferPointer { glob.matchesBySimulation($0, 0, $0.count) } == matches)
    }

    /// A star stops only at character boundaries: a literal that starts with a UTF-8 continuation byte (possible in
    /// a pattern of raw bytes) is not found inside a character.
    @Test func aLiteralIsNotFoundInsideACharacter() {
        let glob = GlobPattern([UInt8(ascii: "*"), 0xA9], variables: nil, caseInsensitive: false)
        #expect(!glob.matches([0xC3, 0xA9]))
        #expect(glob.matches([UInt8(ascii: "a"), 0xA9]))
        #expect(glob.matches([0xC3, 0xA9, 0xA9, 0xA9]))
        for input: [UInt8] in [[0xC3, 0xA9], [UInt8(ascii: "a"), 0xA9], [0xC3, 0xA9, 0xA9, 0xA9]] {
            #expect(glob.matches(input) == input.withUnsafeBufferPointer { glob.matchesBySimulation($0, 0, $0.count) })
        }
    }

    /// The segment algorithm and the set simulation agree on random patterns and inputs over a small alphabet
    /// (stars, `?`, variables, multi-byte and stray bytes), so that almost every pair has matches to find.
    @Test func theSegmentAlgorithmAgreesWithTheSetSimulation() {
        var random = SplitMix(seed: 19)
        let patternPieces: [[UInt8]] = [[0x2A], [0x3F], [0x61], [0x62], [0x61, 0x62], [0xC3, 0xA9], [0xA9], Array("$(d)".utf8)]
        let inputPieces: [[UInt8]] = [[0x61], [0x62], [0xC3, 0xA9], [0xA9], [0xC3], [0x31]]
        let variables = SubstitutionVariables(["d": ["1"]])
        var compared = 0
        for _ in 0..<3_000 {
            var pattern: [UInt8] = []
            for _ in 0..<random.next(upTo: 8) { pattern += patternPieces[random.next(upTo: patternPieces.count)] }
            let glob = GlobPattern(pattern, variables: variables, caseInsensitive: false)
            guard glob.isDeterministic else { continue }
            for _ in 0..<8 {
                var input: [UInt8] = []
                for _ in 0..<random.next(upTo: 10) { input += inputPieces[random.next(upTo: inputPieces.count)] }
                let expected = input.withUnsafeBufferPointer { glob.matchesBySimulation($0, 0, $0.count) }
                #expect(glob.matches(input) == expected, "pattern \(pattern) input \(input)")
                compared += 1
            }
        }
        #expect(compared > 10_000)
    }

    /// A run mixing `?` with text between two stars is tried at every place: it costs its units per URL byte, what
    /// ``GlobPattern/work`` counts and the budget caps, and its answer is the set simulation's.
    @Test(arguments: [false, true])
    func aRunMixingWildcardsWithTextCostsItsUnitsPerURLByte(multibyte: Bool) {
        let (text, any) = multibyte ? ("é", "?") : ("a", "?")
        let glob = GlobPattern("/*" + String(repeating: text + any, count: 500) + "b*", variables: [:], caseInsensitive: false)
        #expect(glob.work == (multibyte ? 1_501 : 1_001))
        for (url, expected) in [
            ("/" + String(repeating: text, count: 2_000), false),
            ("/" + String(repeating: text, count: 2_000) + "b/x", true),
        ] {
            let bytes = Array(url.utf8)
            var steps = 0
            #expect(glob.matches(bytes, steps: &steps) == expected)
            #expect(steps <= bytes.count * (glob.work + 4), "\(steps) steps for \(bytes.count) bytes")
            #expect(bytes.withUnsafeBufferPointer { glob.matchesBySimulation($0, 0, $0.count) } == expected)
        }
    }

    /// A run past the budget for one pattern (4 096 units) is refused: the pattern never matches, and the reader
    /// says so (`tooMuchMatchingWork`).
    @Test func aRunPastTheBudgetIsRefused() {
        let glob = GlobPattern("/*" + String(repeating: "a?", count: 2_100) + "b*", variables: [:], caseInsensitive: false)
        #expect(glob.exceedsWorkBudget)
        #expect(!glob.matches(Array(("/" + String(repeating: "a", count: 4_300) + "b").utf8)))
    }
}
