/// One Android `PatternMatcher`: a `path`, `pathPrefix`, `pathPattern`, `pathAdvancedPattern` or `pathSuffix`
/// value (and the query and fragment matchers of Android 15's `<uri-relative-filter-group>`), matched as AOSP's
/// `android.os.PatternMatcher` matches it.
///
/// Android compares Java strings: one character is one UTF-16 code unit and nothing is normalised, so `"é"` written
/// precomposed does not match `"é"` written as `e` + combining accent, although Swift's `==` says they are equal.
/// This type therefore works on `String.utf16`.
///
/// The surprises of the AOSP code are kept on purpose, because they decide what a device opens:
/// - `simpleGlob` (`pathPattern`): only `x*` and `.*`; `.*` does not backtrack: it skips to the first occurrence of
///   the next pattern character, which is then taken literally even when it is `.`; a `\` escapes the next
///   character. See ``Configuration/escapedDotIsLiteral`` for the escaped `\.` case.
/// - `advancedGlob` (`pathAdvancedPattern`): `.`, `[...]` with ranges and `^`, `*`, `+`, `{m}`, `{m,}`, `{m,n}`;
///   every token takes as many characters as it can and never gives any back (`.*a` matches nothing); a `}` outside
///   a range is dropped; at most 2048 parsed entries; malformed patterns are rejected (Android refuses them when it
///   parses the manifest).
///
/// `AndroidPattern("/pub/.*", kind: .simpleGlob)` matches `/pub/acc`; `linux-host android pattern` answers for any
/// pattern and strings.
package struct AndroidPattern: Sendable, Hashable, CustomStringConvertible {
    /// The five `PatternMatcher` types. A closed grammar: these are the types AOSP defines.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `PATTERN_LITERAL` (`android:path`, `query`, `fragment`): the whole string, exactly.
        case literal
        /// `PATTERN_PREFIX` (`android:pathPrefix`): the string starts with the pattern.
        case prefix
        /// `PATTERN_SIMPLE_GLOB` (`android:pathPattern`): `x*` and `.*`, no backtracking.
        case simpleGlob = "simple"
        /// `PATTERN_ADVANCED_GLOB` (`android:pathAdvancedPattern`, Android 8.1+).
        case advancedGlob = "advanced"
        /// `PATTERN_SUFFIX` (`android:pathSuffix`, Android 12+): the string ends with the pattern.
        case suffix

        /// The manifest attribute suffix AOSP reads for this type: `""`, `"Prefix"`, `"Pattern"`,
        /// `"AdvancedPattern"`, `"Suffix"` (as in `path`, `pathPrefix`, `queryPattern`...).
        package var attributeSuffix: String {
            switch self {
            case .literal: ""
            case .prefix: "Prefix"
            case .simpleGlob: "Pattern"
            case .advancedGlob: "AdvancedPattern"
            case .suffix: "Suffix"
            }
        }
    }

    /// Choices where Android versions differ.
    package struct Configuration: Sendable, Hashable {
        /// Whether an escaped `\.` in a `simpleGlob`, not followed by `*`, is a literal dot.
        ///
        /// `true` (the default) follows current AOSP as this package's design records it. `false` is the code that
        /// Android 15 ships (and every AOSP copy this package was checked against): the escape is consumed and the
        /// `.` still matches any one character, so `/a\.b` matches `/axb`. Both agree on `\.*`, which is `.`
        /// repeated, and on every other escaped character.
        package var escapedDotIsLiteral: Bool

        /// Creates a configuration.
        /// - Parameter escapedDotIsLiteral: See ``escapedDotIsLiteral``.
        package init(escapedDotIsLiteral: Bool = true) {
            self.escapedDotIsLiteral = escapedDotIsLiteral
        }
    }

    /// The pattern as written (after the manifest's own escapes are resolved).
    package let pattern: String
    /// How the pattern is matched.
    package let kind: Kind
    /// The version-dependent choices.
    package let configuration: Configuration
    let units: [UInt16]
    /// The parsed form of an `advancedGlob`, as AOSP's `parseAndVerifyAdvancedPattern` builds it; empty otherwise.
    let parsed: [Int32]

    /// Parses a pattern.
    ///
    /// - Parameters:
    ///   - pattern: The pattern text.
    ///   - kind: The pattern type.
    ///   - configuration: Version-dependent choices.
    /// - Throws: ``AssociationError`` with code `invalidPattern` when Android rejects the pattern (only
    ///   `advancedGlob` patterns can be rejected); the message says where (UTF-16 offset), what was expected and
    ///   what was found.
    package init(_ pattern: String, kind: Kind, configuration: Configuration = .init()) throws(AssociationError) {
        self.pattern = pattern
        self.kind = kind
        self.configuration = configuration
        self.units = Array(pattern.utf16)
        self.parsed = kind == .advancedGlob ? try AdvancedGlob.parse(units, pattern: pattern) : []
    }

    /// Whether `string` matches, compared by UTF-16 code units as Android compares.
    ///
    /// - Parameter string: The decoded path, query parameter or fragment.
    /// - Returns: `true` when Android's `PatternMatcher.match` returns true.
    package func matches(_ string: String) -> Bool {
        matches(utf16: Array(string.utf16))
    }

    func matches(utf16 match: [UInt16]) -> Bool {
        switch kind {
        case .literal: return match == units
        case .prefix: return match.count >= units.count && match[..<units.count].elementsEqual(units)
        case .suffix: return match.count >= units.count && match[(match.count - units.count)...].elementsEqual(units)
        case .simpleGlob: return SimpleGlob.matches(pattern: units, match, escapedDotIsLiteral: configuration.escapedDotIsLiteral)
        case .advancedGlob: return AdvancedGlob.matches(parsed, match)
        }
    }

    /// `simple: /pub/.*`: the kind's console name and the pattern.
    package var description: String { "\(kind.rawValue): \(pattern)" }
}
