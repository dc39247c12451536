import Testing
@testable import AssociatedDomains

/// `PatternMatcher` cases written from reading AOSP's `core/java/android/os/PatternMatcher.java`.
struct AndroidPatternTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var kind: AndroidPattern.Kind
        var pattern: String
        var string: String
        var matches: Bool
        var testDescription: String { "\(kind.rawValue) \(pattern) ~ \(string) = \(matches)" }
        init(_ kind: AndroidPattern.Kind, _ pattern: String, _ string: String, _ matches: Bool) {
            (self.kind, self.pattern, self.string, self.matches) = (kind, pattern, string, matches)
        }
    }

    static let cases: [Case] = [
        // literal, prefix, suffix: code units, case-sensitive, no normalisation
        Case(.literal, "/pub/acc", "/pub/acc", true),
        Case(.literal, "/pub/acc", "/pub/acc/", false),
        Case(.literal, "/pub/acc", "/PUB/ACC", false),
        Case(.literal, "/caf\u{E9}", "/cafe\u{301}", false),
        Case(.prefix, "/pub/", "/pub/acc", true),
        Case(.prefix, "/pub/", "/pub", false),
        Case(.prefix, "", "/anything", true),
        Case(.suffix, ".pdf", "/a/b.pdf", true),
        Case(.suffix, ".pdf", "/a/b.PDF", false),
        // simple glob: `.*` skips to the first occurrence of the next character and never backtracks
        Case(.simpleGlob, "/pub/.*", "/pub/acc", true),
        Case(.simpleGlob, "/pub/.*", "/pub/", true),
        Case(.simpleGlob, "/pub/.*", "/pub", false),
        Case(.simpleGlob, "/a.*b", "/axxb", true),
        Case(.simpleGlob, "/a.*b", "/axbxb", false),
        Case(.simpleGlob, "/.*/y", "/a/y", true),
        Case(.simpleGlob, "/.*/y", "/a/b/y", false),
        Case(.simpleGlob, "/a.*.b", "/axx.b", true),
        Case(.simpleGlob, "/a.*.b", "/axxyb", false),
        Case(.simpleGlob, "a*b", "aaab", true),
        Case(.simpleGlob, "a*b", "b", true),
        Case(.simpleGlob, "/a.b", "/axb", true),
        Case(.simpleGlob, "/a\\.b", "/a.b", true),
        Case(.simpleGlob, "/a\\.b", "/axb", false),
        Case(.simpleGlob, "/a\\*", "/a*", true),
        Case(.simpleGlob, "/a\\*", "/a", false),
        Case(.simpleGlob, "/x\\.*", "/x...", true),
        Case(.simpleGlob, "/x\\.*", "/xy", false),
        Case(.simpleGlob, "", "", true),
        Case(.simpleGlob, "", "/", false),
        Case(.simpleGlob, "/.*", "/\u{1F600}", true),
        Case(.simpleGlob, "/.", "/\u{1F600}", false),
        // advanced glob: greedy tokens, no backtracking
        Case(.advancedGlob, "/pub/[a-c]+", "/pub/abc", true),
        Case(.advancedGlob, "/pub/[a-c]+", "/pub/abd", false),
        Case(.advancedGlob, "/.*a", "/xa", false),
        Case(.advancedGlob, "/[^/]+/x", "/abc/x", true),
        Case(.advancedGlob, "/[^/]+/x", "/a/b/x", false),
        Case(.advancedGlob, "/a{2}", "/aa", true),
        Case(.advancedGlob, "/a{2}", "/a", false),
        Case(.advancedGlob, "/a{2}", "/aaa", false),
        Case(.advancedGlob, "/a{2,}", "/aaaa", true),
        Case(.advancedGlob, "/a{1,2}b", "/aaab", false),
        Case(.advancedGlob, "/a{0,1}b", "/b", true),
        Case(.advancedGlob, "/a}b", "/ab", true),
        Case(.advancedGlob, "/a\\.b", "/a.b", true),
        Case(.advancedGlob, "/a\\.b", "/axb", false),
        Case(.advancedGlob, "[.]", ".", true),
        Case(.advancedGlob, "[.]", "x", false),
        Case(.advancedGlob, "[a-]", "-", true),
        Case(.advancedGlob, "[a-]", "a", true),
        Case(.advancedGlob, "[z-a]", "m", false),
        Case(.advancedGlob, "a{-1}b", "b", true),
        Case(.advancedGlob, "a{+2}", "aa", true),
        Case(.advancedGlob, "/..", "/\u{1F600}", true),
        Case(.advancedGlob, "/.", "/\u{1F600}", false),
        Case(.advancedGlob, "", "", true),
        Case(.advancedGlob, "", "x", false),
    ]

    @Test(arguments: cases)
    func matchesAsAOSPDoes(_ c: Case) throws {
        let pattern = try AndroidPattern(c.pattern, kind: c.kind)
        #expect(pattern.matches(c.string) == c.matches)
    }

    @Test func android15LetsAnEscapedDotMatchAnyCharacter() throws {
        let android15 = try AndroidPattern("/a\\.b", kind: .simpleGlob, configuration: .init(escapedDotIsLiteral: false))
        #expect(android15.matches("/axb"))
        #expect(android15.matches("/a.b"))
        let current = try AndroidPattern("/a\\.b", kind: .simpleGlob)
        #expect(!current.matches("/axb"))
    }

    static let rejected: [(String, String)] = [
        ("*a", "expected a token before the modifier \"*\""),
        ("a**", "expected a token before the modifier \"*\""),
        ("a+*", "expected a token before the modifier \"*\""),
        ("+", "expected a token before the modifier \"+\""),
        ("{1}", "expected a token before the modifier \"{\""),
        ("a{1}{2}", "expected a token before the modifier \"{\""),
        ("a{1}*", "expected a token before the modifier \"*\""),
        ("[]", "expected characters in the set"),
        ("[^]", "expected characters in the set"),
        ("[abc", "expected \"]\" to end the set"),
        ("[", "expected a set after \"[\""),
        ("a\\", "expected a character after the escape"),
        ("a{", "expected \"}\" to end the range"),
        ("a{1", "expected \"}\" to end the range"),
        ("a{x}", "expected a number in the range"),
        ("a{}", "expected a number in the range"),
        ("a{,2}", "expected a number before \",\""),
        ("a{1, 2}", "expected a number after \",\""),
        ("a{2,1}", "expected a minimum no greater than the maximum"),
        ("a{99999999999}", "expected a number in the range"),
    ]

    @Test(arguments: rejected)
    func androidRejectsMalformedAdvancedPatterns(_ pattern: String, _ message: String) {
        #expect {
            _ = try AndroidPattern(pattern, kind: .advancedGlob)
        } throws: { error in
            guard let error = error as? AssociationError else { return false }
            return error.code == .invalidPattern && error.message.contains(message)
                && error.message.contains("Android rejects it")
        }
    }

    @Test func theErrorSaysWhereAndWhatWasFound() {
        do {
            _ = try AndroidPattern("/a/**", kind: .advancedGlob)
            Issue.record("accepted")
        } catch {
            #expect(error.message == "advanced pattern \"/a/**\" at offset 4: expected a token before the modifier \"*\", found \"*\"; Android rejects it")
        }
    }

    @Test func theOtherKindsAcceptAnyText() throws {
        for kind in [AndroidPattern.Kind.literal, .prefix, .simpleGlob, .suffix] {
            _ = try AndroidPattern("*[{\\", kind: kind)
        }
    }

    @Test func theParsedPatternIsCappedAt2045Entries() throws {
        _ = try AndroidPattern(String(repeating: "a", count: 2046), kind: .advancedGlob)
        #expect(throws: AssociationError.self) {
            _ = try AndroidPattern(String(repeating: "a", count: 2047), kind: .advancedGlob)
        }
        // A one-character set costs four entries (start, low, high, stop): 600 of them pass the cap.
        #expect(throws: AssociationError.self) {
            _ = try AndroidPattern(String(repeating: "[a]", count: 600), kind: .advancedGlob)
        }
    }

    @Test func longInputsMatchInOnePass() throws {
        let long = "/" + String(repeating: "ab", count: 200_000)
        #expect(try AndroidPattern("/[ab]*", kind: .advancedGlob).matches(long))
        #expect(try AndroidPattern("/.*b", kind: .simpleGlob).matches("/ab"))
        #expect(!(try AndroidPattern("/.*c", kind: .simpleGlob).matches(long)))
        #expect(!(try AndroidPattern("/a*b*c", kind: .advancedGlob).matches(long)))
    }
}
