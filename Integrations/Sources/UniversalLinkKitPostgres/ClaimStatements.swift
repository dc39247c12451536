import Logging
import PostgresNIO

/// The hot statements, prepared once per connection (postgres-nio's `PostgresPreparedStatement`) for the default
/// table: planning the claim statement costs about three times its execution on loopback (pgbench: 0.38 ms simple,
/// 0.11 ms prepared). postgres-nio takes a prepared statement's SQL as a static property, so a store on another table
/// runs the same SQL unprepared (``ClaimSchema``).
protocol ClaimStatement: PostgresPreparedStatement {
    /// The values of `$1`, `$2`, ...
    var binds: PostgresBindings { get }
}

extension ClaimStatement {
    func makeBindings() throws -> PostgresBindings { binds }
}

extension ClaimSchema {
    /// The default table's statements.
    static let standard = ClaimSchema(table: PostgresClaimStore.Configuration.defaultTableName)

    /// `statement`'s rows: prepared on the default table, else its SQL for this table, unprepared.
    ///
    /// Waiting for a connection ends with the caller's cancellation; once the statement is sent, it runs to its end
    /// and its rows are read whatever the caller does, so a claim the database made after its caller stopped waiting
    /// is known (and given back) rather than lost with the cancelled read.
    ///
    /// A prepared statement cancelled by `statement_timeout` runs again unprepared: postgres-nio keeps a failed
    /// preparation's error on its connection and returns it to every later execution of that statement there, so a
    /// preparation that waited on a locked table would otherwise fail on that connection for as long as it lives.
    func rows<Statement: ClaimStatement>(
        _ statement: Statement, sql: (ClaimSchema) -> String, pool: ConnectionPool
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        let (text, prepared) = (sql(self), table == Self.standard.table)
        return try await pool.withConnection { connection in
            try await Task {
                if prepared {
                    do {
                        var rows: [Statement.Row] = []
                        for try await row in try await connection.execute(statement, logger: Self.logger) { rows.append(row) }
                        return rows
                    } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.queryCancelled {
                        // Run unprepared below.
                    }
                }
                var rows: [Statement.Row] = []
                for try await row in try await connection.query(PostgresQuery(unsafeSQL: text, binds: statement.binds), logger: Self.logger) {
                    rows.append(try statement.decodeRow(row))
                }
                return rows
            }.value
        }
    }

    /// The statements' logger: postgres-nio's own lines, none by default.
    static let logger = Logger(label: "UniversalLinkKitPostgres.statements", factory: { _ in SwiftLogNoOpLogHandler() })

    /// SQLSTATE `query_canceled`: `statement_timeout`, or a cancel request.
    static let queryCancelled = "57014"
}

/// ``ClaimSchema/claim``.
struct ClaimRowStatement: ClaimStatement {
    static let name = "ulk_claim_v2"
    static let sql = ClaimSchema.standard.claim
    let binds: PostgresBindings
    func decodeRow(_ row: PostgresRow) throws -> (String, Bool, String?, String?, Int?, String?, Int?) {
        try row.decode((String, Bool, String?, String?, Int?, String?, Int?).self)
    }
}

/// ``ClaimSchema/read``.
struct ReadRowStatement: ClaimStatement {
    static let name = "ulk_read_v2"
    static let sql = ClaimSchema.standard.read
    let binds: PostgresBindings
    func decodeRow(_ row: PostgresRow) throws -> (Bool, Bool, Bool, String?, String?, Int?, String?, Int?) {
        try row.decode((Bool, Bool, Bool, String?, String?, Int?, String?, Int?).self)
    }
}

/// ``ClaimSchema/publish``.
struct PublishRowStatement: ClaimStatement {
    static let name = "ulk_publish_v2"
    static let sql = ClaimSchema.standard.publish
    let binds: PostgresBindings
    func decodeRow(_ row: PostgresRow) throws -> Bool { try row.decode(Bool.self) }
}

/// ``ClaimSchema/release``.
struct ReleaseRowStatement: ClaimStatement {
    static let name = "ulk_release_v2"
    static let sql = ClaimSchema.standard.release
    let binds: PostgresBindings
    func decodeRow(_ row: PostgresRow) throws -> Bool { try row.decode(Bool.self) }
}
