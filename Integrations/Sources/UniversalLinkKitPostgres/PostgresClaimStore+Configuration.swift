public import PostgresNIO

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
        public init(
            secret: some Sequence<UInt8>,
            duplicateWindow: Duration = .seconds(2),
            tableName: String = defaultTableName,
            operationTimeout: Duration = .seconds(1),
            pollInterval: Duration = .milliseconds(5),
            maximumPollInterval: Duration = .milliseconds(25),
            reclaimBatchSize: Int = 1000,
            reclaimEvery: Int = 250,
            reclaimInterval: Duration = .seconds(1)
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
        }

        /// Sets what a client of this store needs: every statement the database runs for it is cancelled by the
        /// database after ``operationTimeout`` (`statement_timeout`), as the store gives up waiting for it then; and a
        /// connection is kept at least a lease past its last use, since a claim is tied to the session that made it
        /// and a holder's session that ends lets another replica take its click over.
        ///
        /// - Parameters:
        ///   - client: The configuration of the client the store will use; other settings are left as they are.
        ///   - lease: The longest a claim holds: the manager's `LinkManager.Configuration.claimLease`.
        public func prepare(_ client: inout PostgresClient.Configuration, lease: Duration) {
            let milliseconds = max(1, Int((Double(operationTimeout.components.seconds) * 1000
                + Double(operationTimeout.components.attoseconds) / 1e15).rounded(.up)))
            client.options.additionalStartupParameters.removeAll { $0.0 == "statement_timeout" }
            client.options.additionalStartupParameters.append(("statement_timeout", "\(milliseconds)"))
            client.options.connectionIdleTimeout = max(client.options.connectionIdleTimeout, lease + .seconds(10))
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
        }
    }
}
