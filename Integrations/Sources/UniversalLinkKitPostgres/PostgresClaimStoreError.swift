/// Why a ``PostgresClaimStore`` could not do what was asked: its configuration, the database's reach, or the
/// database's answer.
///
/// The message never holds the database's password nor a tracking link: it names the table, the operation and what
/// to do.
public struct PostgresClaimStoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is. The set may grow: keep a `default` case when switching over it.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        enum Storage: String, Sendable {
            case invalidConfiguration, timedOut, databaseFailed, schemaTooNew, permissionDenied
        }

        let storage: Storage

        /// The configuration cannot be used (a secret too short, a table name that is not a plain identifier).
        public static var invalidConfiguration: Self { .init(storage: .invalidConfiguration) }
        /// The database did not answer within ``PostgresClaimStore/Configuration/operationTimeout`` (down,
        /// unreachable, or too slow).
        public static var timedOut: Self { .init(storage: .timedOut) }
        /// The database answered with an error, or the connection failed.
        public static var databaseFailed: Self { .init(storage: .databaseFailed) }
        /// The table was migrated by a newer version of this library: upgrade this process.
        public static var schemaTooNew: Self { .init(storage: .schemaTooNew) }
        /// The database role lacks a privilege the store needs (`CREATE` on its schema to create the table); the
        /// message names the `GRANT` to run.
        public static var permissionDenied: Self { .init(storage: .permissionDenied) }

        /// The code's name: `invalidConfiguration`, `timedOut`, `databaseFailed`, `schemaTooNew` or
        /// `permissionDenied`.
        public var description: String { storage.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What happened and what to do.
    public var message: String
    /// The error that caused this one: a `PSQLError` (whose description postgres-nio keeps free of secrets), or the
    /// connection's own failure (no connection, TLS refused, a message over the cap).
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What happened and what to do.
    ///   - cause: The underlying error, if any.
    public init(code: Code, message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// `"<code>: <message>"`, then the cause's description when there is one.
    public var description: String {
        guard let cause else { return "\(code): \(message)" }
        return "\(code): \(message) (\(String(describing: cause)))"
    }
}
