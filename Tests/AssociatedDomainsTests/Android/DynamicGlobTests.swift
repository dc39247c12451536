import Testing
@testable import AssociatedDomains

/// The Dynamic App Links glob: the answers of the textbook glob on UTF-16 code units, at a cost that follows the
/// text, not the pattern times the text (work counted in the matcher's steps, never timed).
struct DynamicGlobTests {
    /// `*` any run, `?` one code unit, anything else itself: the dynamic-programming glob, O(pattern × text).
    static func reference(_ pattern: [UInt16], _ text: [UInt16]) -> Bool {
        let star = UInt16(UInt8(ascii: "*")), question = UInt16(UInt8(ascii: "?"))
        var row = [Bool](repeating: false, count: text.count + 1)
        row[0] = true
        for p in pattern {
            var next = [Bool](repeating: false, count: text.count + 1)
            for t in 0...text.count {
                if p == star {
                    next[t] = row[t] || (t > 0 && next[t - 1])
                } else if t > 0, row[t - 1], p == question || p == text[t - 1] {
                    next[t] = true
                }
            }
            row = next
        }
        return row[text.count]
    }

    static func steps(_ pattern: String, _ text: String) -> (matches: Bool, steps: Int) {
        var steps = 0
        let matches = DynamicGlob(pattern).matches(DynamicGlob.encoded(text.utf16), steps: &steps)
        return (matches, steps)
    }

    @Test(arguments: [
        ("*", "", true), ("*", "abc", true), ("?", "", false), ("?", "a", true), ("?*", "", false), ("?*", "ab", true),
        ("/a*b", "/axxbxb", true), ("/a*b", "/axxbx", false), ("a?c", "abc", true), ("a?c", "ac", false),
        // One `?` is one UTF-16 code unit: half of an emoji, all of an `é`.
        ("?", "😀", false), ("??", "😀", true), ("/?", "/é", true), ("/?", "/e\u{301}", false),
        ("$(alpha)", "$(alpha)", true), ("$(alpha)", "a", false),
    ])
    func globsMatchCodeUnits(_ pattern: String, _ text: String, _ matches: Bool) {
        #expect(DynamicGlob(pattern).matches(Array(text.utf16)) == matches)
    }

    /// Random small patterns and texts over stars, `?`, ASCII, two-byte and surrogate-pair characters.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func globsAnswerAsTheTextbookGlob(seed: UInt64) {
        var rng = SeededGenerator(state: seed)
        let patternPieces = ["*", "*", "?", "a", "b", "ab", "/", "é", "😀"]
        let textPieces = ["a", "b", "/", "é", "😀", "ba"]
        func piece(_ pieces: [String]) -> String { pieces.randomElement(using: &rng)! }
        var agreed = 0, matched = 0
        for _ in 0..<3_000 {
            let pattern = (0..<Int.random(in: 0...7, using: &rng)).map { _ in piece(patternPieces) }.joined()
            // Half the texts are made from the pattern (a star becomes a few pieces, `?` one code unit), so that many match.
            var text: [UInt16] = []
            if Bool.random(using: &rng) {
                for unit in pattern.utf16 {
                    switch unit {
                    case UInt16(UInt8(ascii: "*")): text += (0..<Int.random(in: 0...2, using: &rng)).flatMap { _ in piece(textPieces).utf16 }
                    case UInt16(UInt8(ascii: "?")): text += piece(["a", "b", "é", "/"]).utf16
                    default: text.append(unit)
                    }
                }
            } else {
                text = (0..<Int.random(in: 0...8, using: &rng)).flatMap { _ in piece(textPieces).utf16 }
            }
            let expected = Self.reference(Array(pattern.utf16), text)
            #expect(DynamicGlob(pattern).matches(text) == expected, "\(pattern) against \(text)")
            agreed += 1
            if expected { matched += 1 }
        }
        // Both answers are well represented, so the comparison means something.
        #expect(matched > 300 && agreed - matched > 300, "\(matched) of \(agreed) match")
    }

    /// Literal runs between stars, the runs a hostile file makes long: found in one pass (KMP), so twice the pattern
    /// against twice the path is twice the steps, where a last-star walk costs the pattern times the path.
    /// A hostile pattern of `n` units and a path of `2n` that it does not match.
    static func hostile(_ shape: String, _ n: Int) -> (pattern: String, text: String) {
        let text = String(repeating: "a", count: 2 * n)
        switch shape {
        case "a long literal between two stars": return ("*" + String(repeating: "a", count: n) + "b*", text)
        case "*a pairs ending in a b": return (String(repeating: "*a", count: n / 2) + "*b", text)
        default: return ("*" + String(repeating: "a", count: n) + "b", text)
        }
    }

    @Test(arguments: ["a long literal between two stars", "*a pairs ending in a b", "a long literal after the last star"])
    func aGlobReadsThePathAboutOnceWhateverItsLength(_ shape: String) {
        let make = { Self.hostile(shape, $0) }
        let (smallPattern, smallText) = make(20_000)
        let (largePattern, largeText) = make(40_000)
        let small = Self.steps(smallPattern, smallText), large = Self.steps(largePattern, largeText)
        #expect(!small.matches && !large.matches)
        AndroidScalingTests.expectDoubles(small.steps, large.steps, "glob steps")
        #expect(large.steps <= 2 * largeText.utf8.count + largePattern.utf8.count, "\(large.steps) steps")
    }

    /// A run mixing `?` with text between two stars is tried at each place: its units are the pattern's work per
    /// character, budgeted at 4 096 as the AASA's are; past it the glob never matches.
    @Test func aRunOfMoreThan4096UnitsBetweenStarsIsRefused() {
        let within = DynamicGlob("*" + String(repeating: "a?", count: 2_048) + "*")
        let past = DynamicGlob("*" + String(repeating: "a?", count: 2_049) + "*")
        #expect(!within.exceedsWorkBudget && past.exceedsWorkBudget)
        let text = Array(String(repeating: "ab", count: 3_000).utf16)
        #expect(within.matches(text))
        #expect(!past.matches(text))
        // Within the budget, the cost is the run's units per character of the path at most.
        var steps = 0
        _ = within.matches(DynamicGlob.encoded(String(repeating: "b", count: 5_000).utf16), steps: &steps)
        #expect(steps <= 4_097 * 5_001, "\(steps) steps")
    }
}
