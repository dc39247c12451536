/// One finding about an association file: where it is, what was expected, what was found.
///
/// Errors are findings that make iOS reject the file or ignore part of it, or that make a rule certain not
/// to do what its author meant; warnings are legal content that iOS ignores or that is probably a mistake.
///
/// ```swift
/// let diagnostics = AppSiteAssociation.check(bytes)
/// for d in diagnostics { log(d.description) }
/// // error: applinks.details[0].appIDs[0]: expected an app ID "TEAMID.bundle.identifier" ..., found the string "abc"
/// ```
public struct AssociationDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// iOS rejects the file or ignores part of it, or a rule cannot do what it says.
        case error
        /// Legal, but ignored by iOS or probably a mistake.
        case warning

        /// Errors sort before warnings.
        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .error && rhs == .warning
        }
    }

    /// What kind of finding this is; an open set, so new checks can be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable, Hashable {
            case notJSON, notAnObject, tooLarge, byteOrderMark, invalidType, missingKey, appsNotEmpty,
                 malformedAppID, unknownKey, duplicateKey, notPrefixTypo, queryInLegacyPath,
                 exclusionBlocksEverything, unreachableRule, undefinedVariable, nonStringQueryPredicate,
                 defaultsIgnoredForLegacyPaths, invalidPattern, shadowedRule, filterNeverMatches, hostNotVerified,
                 dynamicRulesDropped, platformsDisagree, tooManyVariableAlternatives,
                 tooMuchMatchingWork, comparisonsStopped
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The file is not valid JSON.
        public static let notJSON = Code(.notJSON)
        /// The top level (or a section) is not a JSON object.
        public static let notAnObject = Code(.notAnObject)
        /// The file is larger than Apple's 128 KB limit.
        public static let tooLarge = Code(.tooLarge)
        /// The file starts with a UTF-8 byte order mark.
        public static let byteOrderMark = Code(.byteOrderMark)
        /// A key holds a value of the wrong JSON type.
        public static let invalidType = Code(.invalidType)
        /// A required key is missing.
        public static let missingKey = Code(.missingKey)
        /// `applinks.apps` is not an empty array.
        public static let appsNotEmpty = Code(.appsNotEmpty)
        /// An app ID is not `TEAMID.bundle.identifier`.
        public static let malformedAppID = Code(.malformedAppID)
        /// A key iOS does not know (and ignores).
        public static let unknownKey = Code(.unknownKey)
        /// A key appears twice in one object; the last one wins.
        public static let duplicateKey = Code(.duplicateKey)
        /// A legacy path that looks like a misspelt `"NOT "` exclusion.
        public static let notPrefixTypo = Code(.notPrefixTypo)
        /// A legacy path contains `?`, which is a wildcard there, not a query.
        public static let queryInLegacyPath = Code(.queryInLegacyPath)
        /// An exclusion of `*` that blocks every later rule.
        public static let exclusionBlocksEverything = Code(.exclusionBlocksEverything)
        /// A rule placed after a catch-all rule, which can never be reached.
        public static let unreachableRule = Code(.unreachableRule)
        /// A `$(name)` that names no custom or built-in substitution variable.
        public static let undefinedVariable = Code(.undefinedVariable)
        /// A query dictionary with a non-string value, which iOS ignores entirely.
        public static let nonStringQueryPredicate = Code(.nonStringQueryPredicate)
        /// `defaults` present on a detail that only has legacy `paths`.
        public static let defaultsIgnoredForLegacyPaths = Code(.defaultsIgnoredForLegacyPaths)
        /// A pattern that cannot be compiled.
        public static let invalidPattern = Code(.invalidPattern)
        /// A rule after an earlier rule of the same detail that matches every URL it matches, so it never decides
        /// anything (an exclusion after the broader include it was meant to carve out of, typically).
        public static let shadowedRule = Code(.shadowedRule)
        /// An Android intent filter, path matcher or dynamic rule that no tapped link can ever match.
        public static let filterNeverMatches = Code(.filterNeverMatches)
        /// An Android host that links reach but that no `autoVerify` filter declares: it opens the browser.
        public static let hostNotVerified = Code(.hostNotVerified)
        /// A malformed or empty `dynamic_app_link_components` field: Android drops every dynamic rule.
        public static let dynamicRulesDropped = Code(.dynamicRulesDropped)
        /// iOS and Android give different answers for the same URL.
        public static let platformsDisagree = Code(.platformsDisagree)
        /// Substitution variables with wildcard values used so often that matching would cost more than the
        /// file-wide limit of alternatives × occurrences (100 000); the rules past it never match.
        public static let tooManyVariableAlternatives = Code(.tooManyVariableAlternatives)
        /// A pattern whose matching would cost more steps per URL character than the limit for one pattern (4 096:
        /// long runs mixing `?` or `$(…)` with text between stars, or thousands of tokens beside a variable with
        /// values of several lengths), or than the limit for the file's patterns together (250 000); the rules
        /// past it never match.
        public static let tooMuchMatchingWork = Code(.tooMuchMatchingWork)
        /// The Android lint's cross-checks (dynamic rules against intent filters, iOS against Android per URL) stopped
        /// at their budget of matching steps (2^26), or at the most sample URLs they make (2^18): the message says
        /// how many were compared.
        public static let comparisonsStopped = Code(.comparisonsStopped)

        /// The code's name, e.g. `malformedAppID`.
        public var description: String { kind.rawValue }
    }

    /// Error or warning.
    public var severity: Severity
    /// What kind of finding.
    public var code: Code
    /// Where in the file, e.g. `applinks.details[0].components[2]["/"]`; empty for the whole file.
    public var keyPath: String
    /// The readable sentence: what was expected, what was found, and what iOS does about it.
    public var message: String

    /// Creates a diagnostic.
    /// - Parameters:
    ///   - severity: Error or warning.
    ///   - code: The kind of finding.
    ///   - keyPath: Where in the file; empty for the whole file.
    ///   - message: The readable sentence.
    public init(severity: Severity, code: Code, keyPath: String, message: String) {
        self.severity = severity
        self.code = code
        self.keyPath = keyPath
        self.message = message
    }

    /// `error: applinks.details[0].appIDs[0]: expected ..., found ...` (the key path part is omitted when empty).
    public var description: String {
        keyPath.isEmpty ? "\(severity.rawValue): \(message)" : "\(severity.rawValue): \(keyPath): \(message)"
    }
}
