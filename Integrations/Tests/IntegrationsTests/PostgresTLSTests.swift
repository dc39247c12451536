import Foundation
import PostgresNIO
import Testing
import UniversalLinkKit
import UniversalLinkKitPostgres

/// The store over real TLS to the `with-postgres` cluster, whose certificate (made at run time by a CA of its own)
/// names `localhost` only.
@Suite(.timeLimit(.minutes(1)))
struct PostgresTLSTests {
    /// The cluster's root, when it offers TLS.
    static var caFile: String? {
        ProcessInfo.processInfo.environment["ULK_TEST_POSTGRES_CA"].flatMap { $0.isEmpty ? nil : $0 }
    }
    static let skipReason: Comment = "ULK_TEST_POSTGRES_CA is not set: run under Integrations/Scripts/with-postgres, with openssl"

    static func store(_ url: String) throws -> PostgresClaimStore {
        try PostgresClaimStore(
            url: PostgresURL(url), configuration: .init(secret: PostgresTestDatabase.secret, operationTimeout: .seconds(10)))
    }

    @Test(.enabled(if: caFile != nil, skipReason))
    func verifyFullWithTheClustersRootClaimsOverEncryptedConnections() async throws {
        let database = try await PostgresTestDatabase.createDatabase()
        let name = try #require(database.split(separator: "/").last)
        let ca = try #require(Self.caFile)
        let store = try Self.store(
            database.replacingOccurrences(of: "@127.0.0.1:", with: "@localhost:") + "?sslmode=verify-full&sslrootcert=\(ca)")
        let running = Task { try await store.run() }
        defer { running.cancel() }
        try await store.migrate()
        let click = ClickIdentity(URL(string: "https://news.example.com/pub/acc?_ri_=tls")!)
        guard case .won = try await store.claim(click, lease: .seconds(30)) else {
            Issue.record("a new click was not won")
            return
        }
        // The store keeps its connections: every one of them to this database is encrypted.
        let (total, encrypted) = try await PostgresTestDatabase.withClients { clients in
            var counts = (0, 0)
            for try await row in try await clients[0].query("""
                SELECT count(*)::integer, (count(*) FILTER (WHERE s.ssl))::integer
                FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) WHERE a.datname = \(String(name))
                """).decode((Int, Int).self) { counts = row }
            return counts
        }
        #expect(total >= 1)
        #expect(encrypted == total)
    }

    /// The certificate names `localhost`, not 127.0.0.1: verify-full by address must refuse it, and say it was TLS.
    @Test(.enabled(if: caFile != nil, skipReason))
    func verifyFullRefusesACertificateThatDoesNotNameTheHost() async throws {
        let url = try #require(PostgresTestDatabase.url)
        let ca = try #require(Self.caFile)
        let store = try Self.store(url + "?sslmode=verify-full&sslrootcert=\(ca)")
        let running = Task { try await store.run() }
        defer { running.cancel() }
        let error = await #expect(throws: PostgresClaimStoreError.self) { try await store.checkReachable() }
        #expect(error?.code == .databaseFailed)
        #expect(error?.message.contains("the TLS handshake with 127.0.0.1") == true, "\(String(describing: error))")
        #expect(error?.message.contains("sslmode=verify-full") == true)
    }

    @Test func aRootsFileThatCannotBeReadIsRefusedWhenTheStoreIsMade() {
        let error = #expect(throws: PostgresClaimStoreError.self) {
            try Self.store("postgres://links@db.internal/claims?sslmode=verify-full&sslrootcert=/nonexistent/ulk-ca.pem")
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("sslrootcert /nonexistent/ulk-ca.pem") == true, "\(String(describing: error))")
    }
}
