internal import _LinkKitText

/// The error thrown when an association file cannot be used at all, or a generator input is invalid.
///
/// The ``code`` is an open set of static members (keep a `default` case when switching over it); ``message`` says
/// what happened and what to do; ``diagnostics`` carries every finding when the error comes from reading a file.
public struct AssociationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var code: Code
    /// What happened and what the caller can do about it.
    public var message: String
    /// The findings that led to the error, when reading a file.
    public var diagnostics: [AssociationDiagnostic]

    package init(code: Code, message: String, diagnostics: [AssociationDiagnostic] = []) {
        self.code = code
        self.message = message
        self.diagnostics = diagnostics
    }

    /// The message.
    public var description: String { message }
}

extension AssociationError {
    /// The kind of an ``AssociationError``: an open set of static members, compared with `==` or matched in a
    /// `switch`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Storage: Int, ErrorCodeStorage, CaseIterable {
            case unreadableFile = 1
            case invalidAppID
            case invalidPackageName
            case invalidFingerprint
            case invalidRule
            case invalidDomain
            case invalidPattern
            case unreadableManifest
        }

        let storage: Storage

        init(_ storage: Storage) {
            self.storage = storage
        }

        /// The file (an association file or `assetlinks.json`) is not JSON, not of the expected shape, or exceeds the
        /// reader's hard size limit.
        public static var unreadableFile: Self { .init(.unreadableFile) }
        /// A generator was given a malformed app ID.
        public static var invalidAppID: Self { .init(.invalidAppID) }
        /// A generator was given a malformed Android package name.
        public static var invalidPackageName: Self { .init(.invalidPackageName) }
        /// A generator was given a malformed SHA-256 certificate fingerprint.
        public static var invalidFingerprint: Self { .init(.invalidFingerprint) }
        /// A generator was given an empty or unusable rule.
        public static var invalidRule: Self { .init(.invalidRule) }
        /// A generator was given an unusable domain.
        public static var invalidDomain: Self { .init(.invalidDomain) }
        /// An Android `PatternMatcher` pattern that Android rejects (a malformed advanced glob).
        public static var invalidPattern: Self { .init(.invalidPattern) }
        /// An `AndroidManifest.xml` that is not well-formed XML or has no `<manifest>` root.
        public static var unreadableManifest: Self { .init(.unreadableManifest) }

        /// The code's name, spelled as its static member: `"unreadableFile"`, `"invalidAppID"`, ...
        public var description: String { storage.name }
    }
}
