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
    func rows<Statement: ClaimStatement>(
        _ statement: Statement, sql: (ClaimSchema) -> String, client: PostgresClient
    ) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        if table == Self.standard.table {
            for try await row in try await client.execute(statement) { rows.append(row) }
        } else {
            for try await row in try await client.query(PostgresQuery(unsafeSQL: sql(self), binds: statement.binds)) {
                rows.append(try statement.decodeRow(row))
            }
        }
        return rows
    }
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
