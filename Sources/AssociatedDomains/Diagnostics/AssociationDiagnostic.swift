/// One finding about an association file: where it is, what was expected, what was found.
///
/// Errors are findings that make iOS reject the file or ignore part of it, or that make a rule certain not
/// to do what its author meant; warnings are legal content that iOS ignores or that is probably a mistake.
///
/// ```swift
/// let diagnostics: [AssociationDiagnostic]
/// do { diagnostics = try AppSiteAssociation(parsing: bytes).diagnostics } catch { diagnostics = error.diagnostics }
/// for d in diagnostics { log(d.description) }
/// // error: applinks.details[0].appIDs[0]: expected an app ID "TEAMID.bundle.identifier" ..., found the string "abc"
/// ```
public struct AssociationDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable {
        /// iOS (or Android) rejects the file or ignores part of it, or a rule cannot do what it says.
        case error
        /// Legal, but ignored or probably a mistake.
        case warning
    }

    /// What kind of finding this is: a stable name, compared with a string literal
    /// (`diagnostic.code == "malformedAppID"`). The names and their meaning are listed in <doc:APIAtAGlance>; new
    /// ones may be added.
    public struct Code: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The name, such as `malformedAppID`.
        package let rawValue: String

        /// Creates a code from a string literal, for comparisons: `diagnostic.code == "malformedAppID"`.
        ///
        /// - Parameter value: The name.
        public init(stringLiteral value: String) {
            self.rawValue = value
        }

        /// The name, such as `malformedAppID`: what JSON output carries.
        public var description: String { rawValue }

        /// The file is not valid JSON.
        package static let notJSON: Self = "notJSON"
        /// The top level (or a section) is not a JSON object.
        package static let notAnObject: Self = "notAnObject"
        /// The file is larger than Apple's 128 KB limit, or than the reader's.
        package static let tooLarge: Self = "tooLarge"
        /// The file starts with a UTF-8 byte order mark.
        package static let byteOrderMark: Self = "byteOrderMark"
        /// A key holds a value of the wrong JSON type.
        package static let invalidType: Self = "invalidType"
        /// A required key is missing.
        package static let missingKey: Self = "missingKey"
        /// `applinks.apps` is not an empty array.
        package static let appsNotEmpty: Self = "appsNotEmpty"
        /// An app ID is not `TEAMID.bundle.identifier`.
        package static let malformedAppID: Self = "malformedAppID"
        /// A key iOS does not know (and ignores).
        package static let unknownKey: Self = "unknownKey"
        /// A key appears twice in one object; the last value counts.
        package static let duplicateKey: Self = "duplicateKey"
        /// A legacy path that looks like a misspelt `"NOT "` exclusion.
        package static let notPrefixTypo: Self = "notPrefixTypo"
        /// A legacy path contains `?`, which is a wildcard there, not a query.
        package static let queryInLegacyPath: Self = "queryInLegacyPath"
        /// An exclusion of `*` that blocks every later rule.
        package static let exclusionBlocksEverything: Self = "exclusionBlocksEverything"
        /// A rule placed after a catch-all rule, which can never be reached.
        package static let unreachableRule: Self = "unreachableRule"
        /// A `$(name)` that names no custom or built-in substitution variable.
        package static let undefinedVariable: Self = "undefinedVariable"
        /// A query dictionary with a non-string value, which iOS ignores entirely.
        package static let nonStringQueryPredicate: Self = "nonStringQueryPredicate"
        /// `defaults` present on a detail that only has legacy `paths`.
        package static let defaultsIgnoredForLegacyPaths: Self = "defaultsIgnoredForLegacyPaths"
        /// A pattern that cannot be compiled, or that Android rejects.
        package static let invalidPattern: Self = "invalidPattern"
        /// A rule after an earlier rule of the same detail that matches every URL it matches.
        package static let shadowedRule: Self = "shadowedRule"
        /// An Android intent filter, path matcher or dynamic rule that no tapped link can ever match.
        package static let filterNeverMatches: Self = "filterNeverMatches"
        /// An Android host that links reach but that no `autoVerify` filter declares: it opens the browser.
        package static let hostNotVerified: Self = "hostNotVerified"
        /// A malformed or empty `dynamic_app_link_components` field: Android drops every dynamic rule.
        package static let dynamicRulesDropped: Self = "dynamicRulesDropped"
        /// iOS and Android give different answers for the same URL.
        package static let platformsDisagree: Self = "platformsDisagree"
        /// Substitution variables whose wildcard values, times their uses, exceed the file's budget; the rules past it never match.
        package static let tooManyVariableAlternatives: Self = "tooManyVariableAlternatives"
        /// Patterns whose matching would cost more steps than the limit for one pattern or for the file; the rules past it never match.
        package static let tooMuchMatchingWork: Self = "tooMuchMatchingWork"
        /// The Android lint's cross-checks stopped at their budget; the message says how many were compared.
        package static let comparisonsStopped: Self = "comparisonsStopped"
    }

    /// Error or warning.
    public var severity: Severity
    /// What kind of finding.
    public var code: Code
    /// Where in the file, e.g. `applinks.details[0].components[2]["/"]`; empty for the whole file.
    public var keyPath: String
    /// The readable sentence: what was expected, what was found, and what iOS does about it.
    public var message: String

    package init(severity: Severity, code: Code, keyPath: String, message: String) {
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
