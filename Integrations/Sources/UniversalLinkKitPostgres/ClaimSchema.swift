/// The claims table's schema and statements, for one table name (a validated identifier, spliced into the SQL).
///
/// Times are the database's (`now()`), never a replica's clock, so replicas whose clocks disagree still agree on
/// when a lease or a window ends.
///
/// A claim is tied to the database session that made it as well as to its lease: the row records the session's
/// backend (`pg_backend_pid()`) and that backend's start time. When the holder's process dies (a crash, SIGKILL, an
/// OOM kill) its connections close and their backends end at once, and the next claim or read of the click sees the
/// holder gone and takes the click over without waiting for the lease; a holder that is alive but cut off keeps its
/// backend until TCP gives up, so the lease covers it. A backend whose start time the role may not read
/// (`pg_stat_activity` hides it from other roles without `pg_read_all_stats`) counts as alive while its pid runs:
/// every replica should connect as the same role.
struct ClaimSchema: Sendable {
    /// The schema version this library writes and reads: 2 adds the holder's session.
    static let version = 2
    /// The table that records each claims table's schema version.
    static let versionsTable = "ulk_schema_versions"

    let table: String

    /// Serialises the migrations of every process on one database, whatever their table (they share the versions
    /// table, and two concurrent `CREATE TABLE IF NOT EXISTS` of one table can both try to create it); held until
    /// the transaction ends.
    var lock: String { "SELECT pg_advisory_xact_lock(hashtext('universallinkkit.claims.migration'))" }

    var createVersions: String {
        """
        CREATE TABLE IF NOT EXISTS \(Self.versionsTable) (
            table_name text PRIMARY KEY,
            version integer NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
        )
        """
    }

    var readVersion: String { "SELECT version FROM \(Self.versionsTable) WHERE table_name = $1" }

    /// Version 2. The row holds the keyed hash of the click, the claim's fencing token, times and holder session, and
    /// the outcome's fields: never the tracking link. Each statement is idempotent, so a version-1 table is brought
    /// up to date by the same list.
    var createTable: [String] {
        [
            """
            CREATE TABLE IF NOT EXISTS \(table) (
                key text PRIMARY KEY,
                token uuid NOT NULL,
                settled boolean NOT NULL DEFAULT false,
                taken_over boolean NOT NULL DEFAULT false,
                lease_until timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                created_at timestamptz NOT NULL DEFAULT now(),
                deep_link text,
                web_link text,
                error_code integer,
                error_message text,
                status_code integer
            )
            """,
            "CREATE INDEX IF NOT EXISTS \(table)_expires_at ON \(table) (expires_at)",
            "ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS holder_pid integer, ADD COLUMN IF NOT EXISTS holder_started timestamptz",
        ]
    }

    var recordVersion: String {
        """
        INSERT INTO \(Self.versionsTable) (table_name, version) VALUES ($1, $2)
        ON CONFLICT (table_name) DO UPDATE SET version = EXCLUDED.version, applied_at = now()
        """
    }

    /// Whether the session that holds row `alias` has ended: its backend is gone, or another backend took its pid.
    static func holderGone(_ alias: String) -> String {
        """
        (\(alias).holder_pid IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM pg_stat_get_activity(\(alias).holder_pid) a
            WHERE a.backend_start IS NULL OR a.backend_start = \(alias).holder_started))
        """
    }

    /// This session's backend and its start time, for the row's holder.
    static let thisSession = "pg_backend_pid(), (SELECT backend_start FROM pg_stat_get_activity(pg_backend_pid()))"

    /// The claim, one statement: insert the row, or take over a row whose window ended, or whose lease ended or
    /// holder's session ended with no outcome; when neither, the row that holds the click. `$1` key, `$2` token, `$3`
    /// lease seconds, `$4` window seconds.
    ///
    /// The second branch reads with the statement's snapshot: a row another transaction committed while this one
    /// waited on it is not in it, and the statement returns no row at all (the caller reads the row again); a row
    /// the snapshot shows settled but past its window was just taken over by a concurrent claim, so it is `held`.
    var claim: String {
        """
        WITH claimed AS (
            INSERT INTO \(table) AS c (key, token, lease_until, expires_at, holder_pid, holder_started)
            VALUES ($1, $2, now() + make_interval(secs => $3), now() + make_interval(secs => $3 + $4), \(Self.thisSession))
            ON CONFLICT (key) DO UPDATE SET
                token = EXCLUDED.token, lease_until = EXCLUDED.lease_until, expires_at = EXCLUDED.expires_at,
                holder_pid = EXCLUDED.holder_pid, holder_started = EXCLUDED.holder_started,
                created_at = now(), taken_over = NOT c.settled AND c.expires_at > now(), settled = false,
                deep_link = NULL, web_link = NULL, error_code = NULL, error_message = NULL, status_code = NULL
            WHERE c.expires_at <= now() OR (NOT c.settled AND (c.lease_until <= now() OR \(Self.holderGone("c"))))
            RETURNING c.taken_over
        )
        SELECT 'won', taken_over, NULL::text, NULL::text, NULL::integer, NULL::text, NULL::integer FROM claimed
        UNION ALL
        SELECT CASE WHEN e.settled AND e.expires_at > now() THEN 'settled' ELSE 'held' END, false,
            e.deep_link, e.web_link, e.error_code, e.error_message, e.status_code
        FROM \(table) e WHERE e.key = $1 AND NOT EXISTS (SELECT 1 FROM claimed)
        """
    }

    /// The row of a click as it stands: `settled`, lease live (unexpired, and its holder's session alive), window
    /// live, then the outcome's fields. `$1` key.
    var read: String {
        """
        SELECT settled, lease_until > now() AND NOT \(Self.holderGone(table)), expires_at > now(),
            deep_link, web_link, error_code, error_message, status_code
        FROM \(table) WHERE key = $1
        """
    }

    /// Stores an outcome, only with the current token of an unsettled claim (fencing). `$1` key, `$2` token,
    /// `$3` window seconds, `$4`... the outcome's fields.
    var publish: String {
        """
        UPDATE \(table) SET settled = true, expires_at = now() + make_interval(secs => $3),
            deep_link = $4, web_link = $5, error_code = $6, error_message = $7, status_code = $8
        WHERE key = $1 AND token = $2 AND NOT settled
        RETURNING true
        """
    }

    /// Gives a claim up, only with its current token. `$1` key, `$2` token.
    var release: String { "DELETE FROM \(table) WHERE key = $1 AND token = $2 AND NOT settled RETURNING true" }

    /// Deletes at most `$1` expired rows, oldest first, through the expiry index; rows another clean-up is deleting
    /// are skipped.
    var reclaim: String {
        """
        WITH deleted AS (
            DELETE FROM \(table) WHERE key IN (
                SELECT key FROM \(table) WHERE expires_at <= now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED
            )
            RETURNING 1
        )
        SELECT count(*)::integer FROM deleted
        """
    }
}
