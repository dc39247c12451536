/// The error thrown when an association file cannot be used at all, or a generator input is invalid.
///
/// The `code` is an open set of static members; `message` says what happened and what to do;
/// `diagnostics` carries every finding when the error comes from reading a file.
public struct AssociationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong; an open set.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable, Hashable {
            case unreadableFile, invalidAppID, invalidPackageName, invalidFingerprint, invalidRule, invalidDomain
        }
        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// The file is not JSON, not an object, or exceeds the reader's hard size limit.
        public static let unreadableFile = Code(.unreadableFile)
        /// A generator was given a malformed app ID.
        public static let invalidAppID = Code(.invalidAppID)
        /// A generator was given a malformed Android package name.
        public static let invalidPackageName = Code(.invalidPackageName)
        /// A generator was given a malformed SHA-256 certificate fingerprint.
        public static let invalidFingerprint = Code(.invalidFingerprint)
        /// A generator was given an empty or unusable rule.
        public static let invalidRule = Code(.invalidRule)
        /// A generator was given an unusable domain.
        public static let invalidDomain = Code(.invalidDomain)

        /// The code's name, e.g. `unreadableFile`.
        public var description: String { kind.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// What happened and what the caller can do about it.
    public var message: String
    /// The findings that led to the error, when reading a file.
    public var diagnostics: [AssociationDiagnostic]

    /// Creates an error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: What happened and what to do.
    ///   - diagnostics: The findings behind it, if any.
    public init(code: Code, message: String, diagnostics: [AssociationDiagnostic] = []) {
        self.code = code
        self.message = message
        self.diagnostics = diagnostics
    }

    /// The message.
    public var description: String { message }
}
