import Testing
import UniversalLinkKitPostgres

/// `ULK_POSTGRES_URL`'s forms, and the store's configuration checks: no database needed.
struct PostgresURLTests {
    @Test func aTCPURLGivesUserPasswordHostPortAndDatabaseAndItsRedactedFormHidesThePassword() throws {
        let url = try PostgresURL("postgres://links:s%40cret-pw@db.internal:6432/claims")
        #expect(url.username == "links")
        #expect(url.password == "s@cret-pw")
        #expect(url.host == "db.internal")
        #expect(url.port == 6432)
        #expect(url.database == "claims")
        #expect(url.socketDirectory == nil)
        #expect(url.redacted == "postgres://links:***@db.internal:6432/claims")
        #expect(!"\(url)".contains("cret"))
    }

    @Test(arguments: ["postgres://links@%2Fvar%2Frun%2Fpostgresql/claims", "postgresql://links@localhost/claims?host=/var/run/postgresql"])
    func aUnixSocketDirectoryAsTheHostConnectsThroughTheSocket(text: String) throws {
        let url = try PostgresURL(text)
        #expect(url.socketDirectory == "/var/run/postgresql")
        #expect(url.host == nil)
    }

    @Test(arguments: [
        ("mysql://links@db/claims", "expected postgres://"),
        ("postgres://db.internal/claims", "names no user"),
        ("postgres://links:pw-hidden@db.internal", "names no database"),
        ("postgres://links@db.internal/claims?sslmode=allow", "sslmode"),
        ("postgres://links@db.internal/claims?sslmode=require&sslrootcert=/etc/ca.pem", "sslrootcert"),
    ])
    func aMalformedURLSaysWhichPartIsWrongWithoutThePassword(text: String, expected: String) {
        let error = #expect(throws: PostgresClaimStoreError.self) { try PostgresURL(text) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
        #expect(error?.message.contains("pw-hidden") == false)
    }

    @Test(arguments: [
        (Array("short".utf8), "ulk_claims", "at least 16"),
        (Array("0123456789abcdef".utf8), "Claims; DROP TABLE x", "not a plain SQL identifier"),
    ])
    func aConfigurationTheStoreCannotUseIsRefusedWithAClearMessage(secret: [UInt8], table: String, expected: String) {
        let error = #expect(throws: PostgresClaimStoreError.self) {
            try PostgresClaimStore.Configuration(secret: secret, tableName: table).validate()
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
    }

    /// A network attacker cannot turn a connection over the network into plaintext unless the URL asks for it.
    @Test(arguments: [
        ("postgres://links@db.internal/claims", "require"),
        ("postgres://links@10.0.0.7:5432/claims", "require"),
        ("postgres://links@127.0.0.1/claims", "prefer"),
        ("postgres://links@localhost/claims", "prefer"),
        ("postgres://links@[::1]/claims", "prefer"),
        ("postgres://links@%2Fvar%2Frun%2Fpostgresql/claims", "disable"),
        ("postgres://links@db.internal/claims?sslmode=disable", "disable"),
        ("postgres://links@db.internal/claims?sslmode=verify-full", "verify-full"),
    ])
    func theDefaultSSLModeIsRequireForAHostThatIsNotLoopback(text: String, mode: String) throws {
        let url = try PostgresURL(text)
        #expect(url.sslMode == mode)
    }

    @Test func verifyFullTakesTheRootsToTrust() throws {
        let url = try PostgresURL("postgres://links@db.internal/claims?sslmode=verify-full&sslrootcert=/etc/ulk/ca.pem")
        #expect(url.sslMode == "verify-full")
        #expect(url.sslRootCertificate == "/etc/ulk/ca.pem")
    }
}
