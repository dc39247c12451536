public import CoreMetrics
import Crypto
import Foundation
public import Logging
import PostgresNIO
public import ServiceLifecycle
import Synchronization
public import UniversalLinkKit

/// Click claims shared by a fleet of replicas through one PostgreSQL database: a ``UniversalLinkKit/ClaimStore``.
///
/// Give every replica's `LinkManager` a store over the same database, with the same secret:
///
/// ```swift
/// let settings = PostgresClaimStore.Configuration(secret: Array(secret.utf8), duplicateWindow: .seconds(2))
/// var url = try PostgresURL("postgres://links@db.internal/links?sslmode=verify-full")
/// url.password = password
/// let store = try PostgresClaimStore(url: url, configuration: settings)
/// // Run `store` as a service (swift-service-lifecycle, before the services that use it) or with
/// // `try await store.run()` in a task: its connections close when that ends. Then:
/// try await store.migrate()
/// var configuration = LinkManager.Configuration(brandedDomains: ["news.example.com"])
/// configuration.claimStore = store
/// ```
///
/// What it guarantees:
/// - **one winner**: a claim is one atomic `INSERT ... ON CONFLICT (key) DO UPDATE ... WHERE ...` statement; of any
///   number of concurrent claims of one click, exactly one wins while its lease runs;
/// - **leases, sessions and fencing**: a won claim gets a fresh token and is tied to the database session that made
///   it; once that session ends (the holder's process died) or its lease ends with no outcome, the next claim takes
///   the click over with a new token (``UniversalLinkKit/ClaimTicket/isTakeover``), and the old token's publish and
///   release are ignored;
/// - **privacy**: the row's key is HMAC-SHA256(secret, ``UniversalLinkKit/ClickIdentity/key``) in hex; the row holds
///   the outcome's fields (deep link, web link, error code, message, HTTP status), the token and times, never the
///   tracking link or its query;
/// - **bounded growth**: rows expire at the end of the duplicate window; every few hundred claims, or every second,
///   a background statement deletes a bounded batch of expired rows through the index on `expires_at`;
/// - **bounded waits**: every statement gives up after ``Configuration/operationTimeout`` and with its caller's
///   cancellation, so a database that is down fails a claim promptly instead of holding the request; the database
///   cancels it too (`statement_timeout`, sent when each connection starts), and a claim the database made after
///   its caller stopped waiting is released as soon as it is known, so it never holds the click for a lease;
/// - **bounded memory**: a message from the server whose declared length is above ``maximumMessageLength`` is
///   refused as its header arrives and the connection closed, whoever answers in the database's place; the
///   operation fails with ``PostgresClaimStoreError/Code/databaseFailed``;
/// - **its own connections**: at most ``Configuration/maximumConnections``, opened when needed (TLS as the URL's
///   `sslmode` says, see ``PostgresURL``) and kept while the store runs, since a claim is tied to its session.
///
/// Joiners wait for the holder's outcome by reading its row (a primary-key look-up) every few milliseconds
/// (``Configuration/pollInterval``, growing to ``Configuration/maximumPollInterval``). A bounded poll rather than
/// LISTEN/NOTIFY: it needs no connection held per process nor a re-subscription after a reconnect, cannot miss a
/// notification sent between the claim and the subscription, sees a holder's lease end (which no notification
/// announces), and costs one look-up per waiting process (the manager makes one wait per click per process).
/// Measured against a LISTEN/NOTIFY prototype (`claims-benchmark`'s `joiners` section), a joiner has the outcome
/// about 8-10 ms after the publish instead of about 2 ms (medians, loopback); BENCHMARKS.md records why the poll stays.
///
/// | Metric | Type | Dimensions | Counts |
/// | --- | --- | --- | --- |
/// | `ulk_claims_total` | counter | `result`: `won`, `takenOver`, `joined`, `failed` | claims: won fresh, won by taking a dead holder's click over, joined (another process has or had the click), failed (database error or timeout) |
/// | `ulk_claim_duration_seconds` | timer | none | one claim statement, success or failure |
/// | `ulk_claim_publishes_fenced_total` | counter | none | outcomes ignored because their claim had been taken over |
/// | `ulk_claims_reclaimed_total` | counter | none | expired rows deleted |
public final class PostgresClaimStore: ClaimStore, Service {
    /// The label of the claims counter, dimension `result`.
    public static let claimsLabel = "ulk_claims_total"
    /// The label of the claim latency timer.
    public static let latencyLabel = "ulk_claim_duration_seconds"
    /// The label of the counter of fenced (ignored) publishes.
    public static let fencedLabel = "ulk_claim_publishes_fenced_total"
    /// The label of the counter of reclaimed rows.
    public static let reclaimedLabel = "ulk_claims_reclaimed_total"

    /// The largest message the store reads from the database server, in bytes (the declared length, which counts
    /// its own 4 bytes): 1 MiB. A longer one fails the operation and closes its connection.
    ///
    /// The largest message the store legitimately reads is a claim row, whose outcome holds a deep link and a web
    /// link taken from one Response Handler answer of at most 64 KiB (the resolver's body cap): even with every byte
    /// percent-encoded when parsed as URLs, under 200 KiB. 1 MiB leaves room for the server's own messages (errors
    /// and notices, a few KiB) and still bounds what a hostile server can make a process hold per connection.
    public static let maximumMessageLength = 1 << 20

    /// The settings.
    public let configuration: Configuration
    private let pool: ConnectionPool
    private let schema: ClaimSchema
    private let metrics: ClaimMetrics
    private let logger: Logger
    private let reclaim = Mutex(ReclaimState())

    private struct ReclaimState {
        var claimsSince = 0
        var last = ContinuousClock.now
        var running = false
    }

    /// Creates a store on the database `url` names. No connection is opened until the first operation.
    ///
    /// Run the store (``run()``) for as long as it is used: its connections are closed when that ends.
    ///
    /// - Parameters:
    ///   - url: The database, with its user, password and `sslmode`.
    ///   - configuration: The settings.
    ///   - metrics: The metrics backend; by default the bootstrapped one.
    ///   - logger: Where failures of the background clean-up go. Claim failures are thrown, not logged.
    /// - Throws: ``PostgresClaimStoreError`` with ``PostgresClaimStoreError/Code/invalidConfiguration`` when
    ///   ``Configuration/validate()`` does, or when the TLS settings cannot be made (an `sslrootcert` file that
    ///   cannot be read).
    public init(
        url: PostgresURL, configuration: Configuration, metrics: any MetricsFactory = MetricsSystem.factory,
        logger: Logger = Logger(label: "UniversalLinkKitPostgres")
    ) throws(PostgresClaimStoreError) {
        try configuration.validate()
        self.configuration = configuration
        let milliseconds = max(1, Int((Self.seconds(configuration.operationTimeout) * 1000).rounded(.up)))
        let opener = ConnectionOpener(
            url: url, tls: try ConnectionOpener.tlsContext(for: url), connectTimeout: configuration.connectTimeout,
            startupParameters: configuration.sendsStatementTimeout ? [("statement_timeout", "\(milliseconds)")] : [],
            messageLimit: Self.maximumMessageLength)
        self.pool = ConnectionPool(opener: opener, maximum: configuration.maximumConnections)
        self.schema = ClaimSchema(table: configuration.tableName)
        self.metrics = ClaimMetrics(factory: metrics)
        self.logger = logger
    }

    /// The row key of a click: HMAC-SHA256(secret, `click.key`), lowercase hex.
    ///
    /// - Parameter click: The click.
    /// - Returns: 64 hex digits.
    public func rowKey(of click: ClickIdentity) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(click.key.utf8), using: SymmetricKey(data: configuration.secret))
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in code {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Creates the table if missing, or brings it up to this library's version: one versioned, idempotent
    /// migration, serialised across processes by an advisory lock, so replicas starting at once on an empty database
    /// all succeed.
    ///
    /// - Parameter limit: How long the migration may take, waiting for the lock included. Default 10 s.
    /// - Throws: ``PostgresClaimStoreError``: `timedOut` when the database cannot be reached in time,
    ///   `permissionDenied` when the role may not create tables in its schema (the message names the `GRANT` to
    ///   run), `databaseFailed`, or `schemaTooNew` when a newer library migrated the table.
    public func migrate(within limit: Duration = .seconds(10)) async throws {
        let schema = schema
        let pool = pool
        let logger = logger
        let table = configuration.tableName
        let place = Mutex<(role: String, schema: String)>(("", "public"))
        // The transaction wraps what its closure throws: it returns the version found, and the check is made here.
        let found: Int
        do {
            found = try await run("migrate", within: limit, mapsErrors: false) { () async throws -> Int in
                try await pool.withConnection { connection in
                    try await connection.withTransaction(logger: logger) { connection in
                        // The statements of the migration may wait for another replica's: the migration's own limit,
                        // not one statement's, bounds them.
                        let milliseconds = max(1, Int((Self.seconds(limit) * 1000).rounded(.up)))
                        try await connection.query(PostgresQuery(unsafeSQL: "SET LOCAL statement_timeout = \(milliseconds)"), logger: logger)
                        let names = try await connection.query("SELECT current_user::text, coalesce(current_schema(), 'public')::text", logger: logger)
                        for try await (role, schemaName) in names.decode((String, String).self) { place.withLock { $0 = (role, schemaName) } }
                        try await connection.query(PostgresQuery(unsafeSQL: schema.lock), logger: logger)
                        try await connection.query(PostgresQuery(unsafeSQL: schema.createVersions), logger: logger)
                        let rows = try await connection.query(PostgresQuery(unsafeSQL: schema.readVersion, binds: Self.binds(table)), logger: logger)
                        var current = 0
                        for try await version in rows.decode(Int.self) { current = version }
                        guard current < ClaimSchema.version else { return current }
                        for statement in schema.createTable {
                            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                        }
                        var binds = PostgresBindings()
                        binds.append(table)
                        binds.append(ClaimSchema.version)
                        try await connection.query(PostgresQuery(unsafeSQL: schema.recordVersion, binds: binds), logger: logger)
                        return ClaimSchema.version
                    }
                }
            }
        } catch let error as PostgresClaimStoreError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            if let failure = Self.connectionFailure(error, "migrate", table) { throw failure }
            let (role, schemaName) = place.withLock { $0 }
            if Self.sqlState(of: error) == "42501" {
                throw PostgresClaimStoreError(
                    code: .permissionDenied,
                    message: "role \(role) may not create table \(table) in schema \(schemaName) (no CREATE privilege):"
                        + " as the schema's owner, run GRANT CREATE ON SCHEMA \(schemaName) TO \(role);"
                        + " or create the table with a role that may")
            }
            throw PostgresClaimStoreError(
                code: .databaseFailed,
                message: "the migrate on \(table) failed: \(Self.summary(of: error)); check the database's log")
        }
        if found > ClaimSchema.version {
            throw PostgresClaimStoreError(
                code: .schemaTooNew,
                message: "table \(table) has schema version \(found), this library knows \(ClaimSchema.version):"
                    + " upgrade this process, or give it another table"
            )
        }
    }

    /// Checks that the database answers within ``Configuration/operationTimeout``, for a readiness probe.
    ///
    /// - Throws: ``PostgresClaimStoreError`` when it does not.
    public func checkReachable() async throws {
        let pool = pool
        try await run("check", within: configuration.operationTimeout) {
            try await pool.withConnection { connection in
                _ = try await connection.query("SELECT 1", logger: ClaimSchema.logger).collect().count
            }
        }
    }

    // MARK: Service

    /// Keeps the store's connections until the task is cancelled or a graceful shutdown (swift-service-lifecycle)
    /// begins, then closes them; the store makes no claims after that.
    ///
    /// In a `ServiceGroup`, list the store before the services that use it (a `LinkManagerService`): a group shuts
    /// its services down in reverse order, so claims are still published while the manager drains.
    ///
    /// - Throws: Nothing: the end of the wait is the end of the store.
    public func run() async throws {
        try? await gracefulShutdown()
        await pool.close()
    }

    // MARK: ClaimStore

    /// Claims `click` for `lease` in one statement.
    ///
    /// - Parameters:
    ///   - click: The click.
    ///   - lease: How long the claim holds with no outcome.
    /// - Returns: What the claim got.
    /// - Throws: ``PostgresClaimStoreError`` (`timedOut` after ``Configuration/operationTimeout``, or
    ///   `databaseFailed`), or `CancellationError`.
    public func claim(_ click: ClickIdentity, lease: Duration) async throws -> SharedClaim {
        let started = ContinuousClock.now
        defer {
            let elapsed = (ContinuousClock.now - started).components
            metrics.latency.recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
        }
        let key = rowKey(of: click)
        let token = UUID()
        let pool = pool
        let schema = schema
        var binds = PostgresBindings()
        binds.append(key)
        binds.append(token)
        binds.append(Self.seconds(lease))
        binds.append(Self.seconds(configuration.duplicateWindow))
        let claimBinds = binds
        let result: SharedClaim
        // A claim the database made after this caller stopped waiting (the limit, or the caller's deadline) holds the
        // click with nobody resolving it: give it back at once.
        let abandoned: @Sendable (Result<SharedClaim, any Error>) -> Void = { [self] late in
            guard case let .success(.won(ticket)) = late else { return }
            Task {
                do {
                    try await release(click, ticket: ticket)
                    logger.debug("claim made after its caller stopped waiting: released", metadata: ["claims.table": .string(schema.table)])
                } catch {
                    logger.warning("claim made after its caller stopped waiting: not released, its lease ends it", metadata: ["error": .string("\(error)")])
                }
            }
        }
        do {
            result = try await run("claim", within: configuration.operationTimeout, abandoned: abandoned) { () async throws -> SharedClaim in
                // A row committed by another claim while this statement waited on it is invisible to the statement's
                // snapshot: read it again, and claim again if it has gone (expired and reclaimed meanwhile).
                for _ in 0..<3 {
                    let rows = try await schema.rows(ClaimRowStatement(binds: claimBinds), sql: \.claim, pool: pool)
                    for row in rows {
                        switch row.0 {
                        case "won":
                            return .won(ClaimTicket(token: token.uuidString, isTakeover: row.1))
                        case "settled":
                            return .settled(Self.outcome(row.2, row.3, row.4, row.5, row.6))
                        default:
                            return .heldElsewhere
                        }
                    }
                    if let state = try await Self.read(key, pool: pool, schema: schema) {
                        switch state {
                        case let .settled(outcome): return .settled(outcome)
                        case .held: return .heldElsewhere
                        case .free: continue
                        }
                    }
                }
                throw PostgresClaimStoreError(
                    code: .databaseFailed, message: "the claim of a click in \(schema.table) kept racing with its expiry; try again")
            }
        } catch {
            metrics.failed.increment()
            throw error
        }
        switch result {
        case let .won(ticket): (ticket.isTakeover ? metrics.takenOver : metrics.won).increment()
        case .heldElsewhere, .settled: metrics.joined.increment()
        }
        scheduleReclaim()
        return result
    }

    /// Stores the outcome of a won claim; ignored (and counted as fenced) when the claim was taken over.
    ///
    /// - Parameters:
    ///   - outcome: The outcome.
    ///   - click: The click.
    ///   - ticket: The won claim's ticket.
    /// - Throws: ``PostgresClaimStoreError``, or `CancellationError`.
    public func publish(_ outcome: SharedOutcome, of click: ClickIdentity, ticket: ClaimTicket) async throws {
        guard let token = UUID(uuidString: ticket.token) else { return metrics.fenced.increment() }
        var binds = PostgresBindings()
        binds.append(rowKey(of: click))
        binds.append(token)
        binds.append(Self.seconds(configuration.duplicateWindow))
        binds.append(outcome.deepLinkURL?.absoluteString)
        binds.append(outcome.webLinkURL?.absoluteString)
        binds.append(outcome.errorCode?.rawValue)
        // No message: a message names the link; each replica words the error for its own.
        binds.append(String?.none)
        binds.append(outcome.statusCode)
        let statement = PublishRowStatement(binds: binds)
        let pool = pool
        let schema = schema
        let stored = try await run("publish", within: configuration.operationTimeout) {
            try await schema.rows(statement, sql: \.publish, pool: pool).count == 1
        }
        if !stored { metrics.fenced.increment() }
    }

    /// Deletes a won claim's row, so another process can take the click at once; ignored when the claim was taken
    /// over.
    ///
    /// - Parameters:
    ///   - click: The click.
    ///   - ticket: The won claim's ticket.
    /// - Throws: ``PostgresClaimStoreError``, or `CancellationError`.
    public func release(_ click: ClickIdentity, ticket: ClaimTicket) async throws {
        guard let token = UUID(uuidString: ticket.token) else { return }
        var binds = PostgresBindings()
        binds.append(rowKey(of: click))
        binds.append(token)
        let statement = ReleaseRowStatement(binds: binds)
        let pool = pool
        let schema = schema
        try await run("release", within: configuration.operationTimeout) {
            _ = try await schema.rows(statement, sql: \.release, pool: pool)
        }
    }

    /// Waits for the outcome of a click another process holds, reading its row every few milliseconds.
    ///
    /// - Parameters:
    ///   - click: The click.
    ///   - timeLeft: How long the caller can wait.
    /// - Returns: The outcome; `nil` when the holder's lease ended with no outcome or the row is gone (claim again).
    /// - Throws: `CancellationError` when the task is cancelled or `timeLeft` passes first;
    ///   ``PostgresClaimStoreError`` when a read fails or takes longer than ``Configuration/operationTimeout``.
    public func awaitOutcome(of click: ClickIdentity, within timeLeft: Duration) async throws -> SharedOutcome? {
        let key = rowKey(of: click)
        let pool = pool
        let schema = schema
        let configuration = configuration
        return try await OperationDeadline.run(within: timeLeft, timedOut: { CancellationError() }) {
            var pause = configuration.pollInterval
            while true {
                let state = try await OperationDeadline.run(within: configuration.operationTimeout, timedOut: {
                    Self.timedOut("read", configuration)
                }) {
                    try await Self.read(key, pool: pool, schema: schema, waiting: true)
                }
                switch state {
                case let .settled(outcome)?: return outcome
                case .free?, nil: return nil
                case .held?:
                    try await Task.sleep(for: pause)
                    pause = min(pause * 1.5, configuration.maximumPollInterval)
                }
            }
        }
    }

    // MARK: Internals

    private enum RowState: Sendable {
        case settled(SharedOutcome)
        case held
        /// The lease or the window ended: a claim would win.
        case free
    }

    /// The row's state. `waiting`: the caller saw the click held and waits for its outcome, so a settled row
    /// answers even when its window has already ended (a window shorter than a poll would otherwise make every
    /// waiter claim the click again, and send it again).
    private static func read(
        _ key: String, pool: ConnectionPool, schema: ClaimSchema, waiting: Bool = false
    ) async throws -> RowState? {
        for row in try await schema.rows(ReadRowStatement(binds: binds(key)), sql: \.read, pool: pool) {
            let (settled, leaseLive, windowLive) = (row.0, row.1, row.2)
            if settled, waiting || windowLive { return .settled(outcome(row.3, row.4, row.5, row.6, row.7)) }
            if !windowLive { return .free }
            return leaseLive ? .held : .free
        }
        return nil
    }

    private static func outcome(_ deep: String?, _ web: String?, _ code: Int?, _: String?, _ status: Int?) -> SharedOutcome {
        SharedOutcome(
            deepLinkURL: deep.flatMap(URL.init(string:)), webLinkURL: web.flatMap(URL.init(string:)),
            errorCode: code.flatMap(LinkError.Code.init(rawValue:)), statusCode: status)
    }

    private static func binds(_ text: String) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(text)
        return binds
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func timedOut(_ operation: String, _ configuration: Configuration) -> PostgresClaimStoreError {
        PostgresClaimStoreError(
            code: .timedOut,
            message: "the database did not answer the \(operation) on \(configuration.tableName) within"
                + " \(configuration.operationTimeout): check that PostgreSQL is up and reachable"
        )
    }

    /// Runs `operation` within `limit`, mapping the database's errors to ``PostgresClaimStoreError`` unless
    /// `mapsErrors` is `false`.
    private func run<Value: Sendable>(
        _ name: String, within limit: Duration, mapsErrors: Bool = true,
        abandoned: @escaping @Sendable (Result<Value, any Error>) -> Void = { _ in },
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let configuration = configuration
        do {
            return try await OperationDeadline.run(
                within: limit, timedOut: { Self.timedOut(name, configuration) }, abandoned: abandoned, operation)
        } catch let error as PostgresClaimStoreError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch where mapsErrors {
            if let failure = Self.connectionFailure(error, name, configuration.tableName) { throw failure }
            throw PostgresClaimStoreError(
                code: .databaseFailed,
                message: "the \(name) on \(configuration.tableName) failed: \(Self.summary(of: error)); check the database's log",
                cause: error)
        }
    }

    /// The error of an operation whose connection failed before the database could answer, or `nil` for any other
    /// error: one that could not be set up (its message says why and what to do), or one the framing guard closed
    /// (not a PostgreSQL server this store can trust, or one that misbehaves). Neither is in the database's log.
    private static func connectionFailure(_ error: any Error, _ operation: String, _ table: String) -> PostgresClaimStoreError? {
        switch error {
        case let error as ConnectionOpener.SetupError:
            return PostgresClaimStoreError(code: .databaseFailed, message: "the \(operation) on \(table) failed: \(error)", cause: error)
        case let violation as BackendFramingGuard.Violation:
            return PostgresClaimStoreError(
                code: .databaseFailed,
                message: "the \(operation) on \(table) failed: \(violation); the connection was closed. Check that the URL"
                    + " names your PostgreSQL server, and use sslmode=verify-full so that nothing else can answer in its place",
                cause: violation)
        default:
            return nil
        }
    }

    /// The SQLSTATE of a database error, inside a transaction's error too.
    static func sqlState(of error: any Error) -> String? {
        if let error = error as? PSQLError { return error.serverInfo?[.sqlState] }
        if let error = error as? PostgresTransactionError {
            return [error.beginError, error.closureError, error.commitError].lazy.compactMap { $0.flatMap(sqlState(of:)) }.first
        }
        return nil
    }

    /// One line about a database error: the server's message and SQLSTATE, or the connection's failure, never a dump
    /// of the error's fields (which hold the statement and its bindings).
    static func summary(of error: any Error) -> String {
        if let error = error as? PostgresTransactionError {
            return [error.beginError, error.closureError, error.commitError].lazy.compactMap { $0.map(summary(of:)) }.first
                ?? "the transaction failed"
        }
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let message = error.serverInfo?[.message] {
            return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
        }
        return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
    }

    /// Starts a clean-up in the background when enough claims or time passed since the last, one at a time per store.
    private func scheduleReclaim() {
        let now = ContinuousClock.now
        let due = reclaim.withLock { state -> Bool in
            state.claimsSince += 1
            guard !state.running,
                state.claimsSince >= configuration.reclaimEvery || now - state.last >= configuration.reclaimInterval
            else { return false }
            state = ReclaimState(claimsSince: 0, last: now, running: true)
            return true
        }
        guard due else { return }
        Task { await reclaimExpired() }
    }

    /// Deletes one batch of expired rows.
    ///
    /// - Returns: The rows deleted.
    @discardableResult
    func reclaimExpired() async -> Int {
        defer { reclaim.withLock { $0.running = false } }
        var binds = PostgresBindings()
        binds.append(configuration.reclaimBatchSize)
        let query = PostgresQuery(unsafeSQL: schema.reclaim, binds: binds)
        let pool = pool
        do {
            let deleted = try await run("clean-up", within: configuration.operationTimeout * 5) { () async throws -> Int in
                var rows = 0
                try await pool.withConnection { connection in
                    for try await count in try await connection.query(query, logger: ClaimSchema.logger).decode(Int.self) { rows = count }
                }
                return rows
            }
            metrics.reclaimed.increment(by: deleted)
            return deleted
        } catch {
            logger.warning("expired claims not deleted", metadata: ["error": .string("\(error)")])
            return 0
        }
    }
}
