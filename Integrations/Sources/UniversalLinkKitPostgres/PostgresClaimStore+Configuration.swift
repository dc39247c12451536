extension PostgresClaimStore {
    /// The settings of a ``PostgresClaimStore``: the key of the click hashes, how long outcomes are kept, where,
    /// and how long the store waits for the database.
    ///
    /// Every replica of a fleet must use the same ``secret``, ``duplicateWindow`` and ``tableName``.
    public struct Configuration: Sendable {
        /// The default ``tableName``, `ulk_claims`, whose statements are prepared once per connection.
        public static let defaultTableName = "ulk_claims"

        /// The fewest bytes a ``secret`` may have.
        public static let minimumSecretLength = 16

        /// The key of the HMAC-SHA256 that turns a click's identity (the tracking link) into the row's key, so the
        /// table never holds the link. At least ``minimumSecretLength`` bytes; the same on every replica.
        public var secret: [UInt8]
        /// How long a published outcome answers duplicates of its click, fleet-wide. Default 2 s (the manager's
        /// default duplicate window). Rows are deleted after it.
        public var duplicateWindow: Duration
        /// The table of claims: a plain lowercase SQL identifier (`[a-z_][a-z0-9_]*`, at most 63 characters).
        /// Default `ulk_claims` (``defaultTableName``), whose statements are prepared once per connection; another
        /// table's are planned on every run (about 0.25 ms more per statement on loopback).
        public var tableName: String
        /// The longest one statement may take before the store gives up with
        /// ``PostgresClaimStoreError/Code/timedOut``, so that a database that is down or unreachable fails a
        /// claim well before the resolution's deadline (and the manager's ``UniversalLinkKit/ClaimStoreFailurePolicy``
        /// applies). Default 1 s.
        public var operationTimeout: Duration
        /// The first pause between two reads of a click another process holds. Default 5 ms.
        public var pollInterval: Duration
        /// The longest pause between two reads: the pause grows by half each time up to it. Default 25 ms.
        public var maximumPollInterval: Duration
        /// The most expired rows one clean-up deletes. Default 1 000.
        public var reclaimBatchSize: Int
        /// A clean-up runs after this many claims, or at most ``reclaimInterval`` after the last one, whichever
        /// first. Default 250, a quarter of ``reclaimBatchSize``, so clean-ups outpace any rate of new rows.
        public var reclaimEvery: Int
        /// The longest time between two clean-ups while claims are made. Default 1 s.
        public var reclaimInterval: Duration
        /// The most connections the store opens to the database at once: as many statements run at once, and
        /// further ones wait for a connection (within their ``operationTimeout``). Connections are opened when
        /// needed and kept while the store runs. Default 20.
        public var maximumConnections: Int
        /// The longest the store waits for a new connection to be ready: the TCP connect, TLS and the startup
        /// together. Default 10 s; a statement still gives up after ``operationTimeout``.
        public var connectTimeout: Duration
        /// Whether connections ask the database to cancel a statement after ``operationTimeout``
        /// (`statement_timeout`). Always, except in the test of a claim the database makes after the store stopped
        /// waiting for it, which the database's own cancel otherwise prevents.
        var sendsStatementTimeout = true

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - secret: The HMAC key, at least 16 bytes; the same on every replica.
        ///   - duplicateWindow: How long an outcome answers duplicates.
        ///   - tableName: The table of claims.
        ///   - operationTimeout: The longest one statement may take.
        ///   - pollInterval: The first pause between two reads of a held click.
        ///   - maximumPollInterval: The longest pause between two reads.
        ///   - reclaimBatchSize: The most expired rows one clean-up deletes.
        ///   - reclaimEvery: Claims between two clean-ups.
        ///   - reclaimInterval: The longest time between two clean-ups.
        ///   - maximumConnections: The most connections at once.
        ///   - connectTimeout: The longest wait for a new connection.
        public init(
            secret: some Sequence<UInt8>,
            duplicateWindow: Duration = .seconds(2),
            tableName: String = defaultTableName,
            operationTimeout: Duration = .seconds(1),
            pollInterval: Duration = .milliseconds(5),
            maximumPollInterval: Duration = .milliseconds(25),
            reclaimBatchSize: Int = 1000,
            reclaimEvery: Int = 250,
            reclaimInterval: Duration = .seconds(1),
            maximumConnections: Int = 20,
            connectTimeout: Duration = .seconds(10)
        ) {
            self.secret = Array(secret)
            self.duplicateWindow = duplicateWindow
            self.tableName = tableName
            self.operationTimeout = operationTimeout
            self.pollInterval = pollInterval
            self.maximumPollInterval = maximumPollInterval
            self.reclaimBatchSize = reclaimBatchSize
            self.reclaimEvery = reclaimEvery
            self.reclaimInterval = reclaimInterval
            self.maximumConnections = maximumConnections
            self.connectTimeout = connectTimeout
        }

        /// Checks the settings a store cannot work with.
        ///
        /// - Throws: ``PostgresClaimStoreError`` with ``PostgresClaimStoreError/Code/invalidConfiguration`` naming
        ///   the setting and what it must be.
        public func validate() throws(PostgresClaimStoreError) {
            guard secret.count >= Self.minimumSecretLength else {
                throw PostgresClaimStoreError(
                    code: .invalidConfiguration,
                    message: "the claim secret has \(secret.count) bytes; use at least \(Self.minimumSecretLength)"
                        + " random bytes (for example `openssl rand -hex 32`), the same on every replica"
                )
            }
            let identifier = tableName.utf8.count <= 63 && tableName.unicodeScalars.first.map { $0 == "_" || ("a"..."z").contains($0) } == true
                && tableName.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            guard identifier else {
                throw PostgresClaimStoreError(
                    code: .invalidConfiguration,
                    message: "table name \"\(tableName)\" is not a plain SQL identifier: use lowercase letters, digits"
                        + " and _, starting with a letter or _, at most 63 characters"
                )
            }
            guard duplicateWindow >= .zero else {
                throw PostgresClaimStoreError(code: .invalidConfiguration, message: "the duplicate window must not be negative")
            }
            guard operationTimeout > .zero, pollInterval > .zero, maximumPollInterval >= pollInterval else {
                throw PostgresClaimStoreError(
                    code: .invalidConfiguration,
                    message: "operationTimeout and pollInterval must be positive, and maximumPollInterval at least pollInterval"
                )
            }
            guard reclaimBatchSize >= 1, reclaimEvery >= 1, reclaimInterval > .zero else {
                throw PostgresClaimStoreError(
                    code: .invalidConfiguration, message: "reclaimBatchSize, reclaimEvery and reclaimInterval must be positive"
                )
            }
            guard maximumConnections >= 1, connectTimeout > .zero else {
                throw PostgresClaimStoreError(
                    code: .invalidConfiguration, message: "maximumConnections and connectTimeout must be positive")
            }
        }
    }
}
