import Testing
@testable import AssociatedDomains

/// A differential property test: random well-formed advanced globs, built as tokens, rendered as text, parsed by
/// `AndroidPattern` and matched against random strings, must agree with a straightforward reference that matches
/// the token list directly (each token greedy up to its maximum, never giving back, as AOSP documents).
struct AdvancedGlobReferenceTests {
    enum Atom {
        case literal(Character)
        case any
        case set([ClosedRange<Character>], negated: Bool)

        func accepts(_ c: Character) -> Bool {
            switch self {
            case .literal(let l): return l == c
            case .any: return true
            case .set(let ranges, let negated): return ranges.contains { $0.contains(c) } != negated
            }
        }

        var text: String {
            switch self {
            case .literal(let c): return "." == c ? "\\." : String(c)
            case .any: return "."
            case .set(let ranges, let negated):
                return "[" + (negated ? "^" : "") + ranges.map { $0.lowerBound == $0.upperBound ? String($0.lowerBound) : "\($0.lowerBound)-\($0.upperBound)" }.joined() + "]"
            }
        }
    }

    struct Token {
        var atom: Atom
        var minimum: Int
        var maximum: Int  // Int.max for unbounded
        var modifier: String
    }

    /// The reference: walk the tokens, each taking as many characters as it may.
    static func referenceMatches(_ tokens: [Token], _ string: [Character]) -> Bool {
        var i = 0
        for token in tokens {
            var taken = 0
            while taken < token.maximum, i + taken < string.count, token.atom.accepts(string[i + taken]) { taken += 1 }
            if taken < token.minimum { return false }
            i += taken
        }
        return i == string.count
    }

    /// SplitMix64, so a failure names a seed that reproduces it.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let alphabet: [Character] = ["a", "b", "c", "."]

    static func randomToken(_ r: inout Random) -> Token {
        let atom: Atom
        switch r.below(4) {
        case 0: atom = .any
        case 1:
            let low = alphabet[r.below(3)], high = alphabet[r.below(3)]
            atom = .set([min(low, high)...max(low, high)] + (r.below(2) == 0 ? ["."..."."] : []), negated: r.below(3) == 0)
        default: atom = .literal(alphabet[r.below(alphabet.count)])
        }
        switch r.below(6) {
        case 0: return Token(atom: atom, minimum: 0, maximum: .max, modifier: "*")
        case 1: return Token(atom: atom, minimum: 1, maximum: .max, modifier: "+")
        case 2:
            let n = r.below(3)
            return Token(atom: atom, minimum: n, maximum: n, modifier: "{\(n)}")
        case 3:
            let n = r.below(3), m = n + r.below(3)
            return Token(atom: atom, minimum: n, maximum: m, modifier: "{\(n),\(m)}")
        case 4:
            let n = r.below(3)
            return Token(atom: atom, minimum: n, maximum: .max, modifier: "{\(n),}")
        default: return Token(atom: atom, minimum: 1, maximum: 1, modifier: "")
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func parserAndMatcherAgreeWithTheReference(seed: UInt64) throws {
        var r = Random(state: seed)
        var matched = 0, total = 0
        for _ in 0..<400 {
            let tokens = (0..<(1 + r.below(5))).map { _ in Self.randomToken(&r) }
            let text = tokens.map { $0.atom.text + $0.modifier }.joined()
            let pattern = try AndroidPattern(text, kind: .advancedGlob)
            for _ in 0..<25 {
                let string = (0..<r.below(8)).map { _ in Self.alphabet[r.below(Self.alphabet.count)] }
                let expected = Self.referenceMatches(tokens, string)
                let actual = pattern.matches(String(string))
                #expect(actual == expected, "seed \(seed): \(text) ~ \(String(string))")
                total += 1
                if expected { matched += 1 }
            }
        }
        // The generator must exercise both answers, or the comparison proves little.
        #expect(matched > total / 50 && matched < total - total / 50)
    }

    @Test func theReferenceIsNotABacktrackingRegex() {
        // `.*a` never matches under greedy no-backtracking rules, which a regex would accept.
        let tokens = [Token(atom: .any, minimum: 0, maximum: .max, modifier: "*"), Token(atom: .literal("a"), minimum: 1, maximum: 1, modifier: "")]
        #expect(!Self.referenceMatches(tokens, ["b", "a"]))
    }
}
