#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Testing
@testable import AssociatedDomains

/// The glob matcher: linear in the URL for the literal runs a hostile file makes long, and the same answers as the
/// set simulation (which any pattern can use) for every pattern the segment algorithm takes.
struct GlobPatternTests {
    /// Four rules `/*a{32000}b*` against a 64 KB URL took 5.2 s per URL: each place the star tried compared up to
    /// the whole literal. Four times the pattern and the URL must cost about four times as much (in this thread's
    /// CPU time, not the wall clock), not sixteen.
    @Test func aLongLiteralBetweenStarsCostsTheURLNotThePatternTimesTheURL() {
        func cost(_ size: Int) -> Double {
            let glob = GlobPattern("/*" + String(repeating: "a", count: size / 2) + "b*", variables: [:], caseInsensitive: false)
            let url = Array(("/" + String(repeating: "a", count: size)).utf8)
            var best = Double.infinity
            for _ in 0..<3 {
                let start = Self.threadCPUSeconds()
                for _ in 0..<10 { #expect(!glob.matches(url)) }
                best = min(best, Self.threadCPUSeconds() - start)
            }
            return best
        }
        let small = cost(8_000)
        let large = cost(32_000)
        #expect(large / small < 8, "4x the pattern and URL cost \(large / small)x the time")
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

    /// `/*a?a?…b*` between two stars was tried at every place of the URL: a run of 4 000 units against 16 000 `a`s
    /// was 64 M steps (a 64 KB file's rule against a 64 KB URL: 4 G). Bit-parallel it is the URL times 63 words, plus
    /// the tables, and the match is the same.
    @Test(arguments: [false, true])
    func aRunMixingWildcardsWithTextCostsTheURLTimesItsWordsNotItsLength(multibyte: Bool) {
        let (text, any) = multibyte ? ("é", "?") : ("a", "?")
        let glob = GlobPattern("/*" + String(repeating: text + any, count: 2_000) + "b*", variables: [:], caseInsensitive: false)
        #expect(glob.work == (multibyte ? 94 : 63))
        for (url, expected) in [
            ("/" + String(repeating: text, count: 16_000), false),
            ("/" + String(repeating: text, count: 16_000) + "b/x", true),
        ] {
            let bytes = Array(url.utf8)
            var steps = 0
            #expect(glob.matches(bytes, steps: &steps) == expected)
            let bound = bytes.count * (glob.work + 4) + 2 * glob.runs[0].tableCost
            #expect(steps <= bound, "\(steps) steps for \(bytes.count) bytes (tried place by place: \(bytes.count * 4_000))")
        }
    }

    /// The bit-parallel search (forced from the first place), the place-by-place one and the set simulation agree on
    /// random patterns of stars, `?`, ASCII and multi-byte text, a class and a code set with multi-byte values,
    /// against inputs with multi-byte characters, truncated ones and stray continuation bytes.
    // Async, yielding as it goes: under ThreadSanitizer it computes for tens of seconds, and holding one of the
    // cooperative threads (one per core) that long made the deadline tests running beside it late.
    @Test func theBitParallelSearchAgreesWithTheSetSimulation() async {
        var random = SplitMix(seed: 1_919)
        let patternPieces: [[UInt8]] = [
            [0x2A], [0x2A], [0x3F], [0x3F], [0x61], [0x62], [0x61, 0x62], [0xC3, 0xA9], Array("€".utf8),
            Array("$(digit)".utf8), Array("$(v)".utf8),
        ]
        let rawPieces: [[UInt8]] = [[0xA9], [0xC3], [0xE2, 0x82]]
        let inputPieces: [[UInt8]] = [
            [0x61], [0x61], [0x62], [0x31], [0xC3, 0xA9], Array("€".utf8), [0xA9], [0xC3], [0xE2, 0x82], [0xF0],
        ]
        let variables = SubstitutionVariables(["v": ["ab", "é", "1a"]])
        var compared = 0
        var parallel = 0
        for round in 0..<4_000 {
            if round % 64 == 0 { await Task.yield() }
            var pattern: [UInt8] = []
            for _ in 0..<random.next(upTo: 12) {
                let raw = round % 4 == 0 && random.next(upTo: 6) == 0
                pattern += raw ? rawPieces[random.next(upTo: rawPieces.count)] : patternPieces[random.next(upTo: patternPieces.count)]
            }
            let glob = GlobPattern(pattern, variables: variables, caseInsensitive: false)
            guard glob.isDeterministic else { continue }
            if glob.runs.contains(where: { !$0.isLiteral && $0.units > 0 }) { parallel += 1 }
            for _ in 0..<6 {
                var input: [UInt8] = []
                for _ in 0..<random.next(upTo: 16) { input += inputPieces[random.next(upTo: inputPieces.count)] }
                let expected = input.withUnsafeBufferPointer { glob.matchesBySimulation($0, 0, $0.count) }
                var steps = 0
                #expect(glob.matches(input) == expected, "pattern \(pattern) input \(input)")
                #expect(glob.matches(input, steps: &steps, forcesParallel: true) == expected, "pattern \(pattern) input \(input)")
                compared += 1
            }
        }
        #expect(compared > 10_000)
        #expect(parallel > 1_000)
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
