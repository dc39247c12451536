import Foundation
import PostgresNIO
import Testing
import UniversalLinkKit
import UniversalLinkKitPostgres

/// The store over real TLS, to a cluster of the test's own that offers it (`with-postgres` with
/// `ULK_TEST_POSTGRES_TLS=1`), whose certificate, made at run time by a CA of its own, names `localhost` only. The
/// shared cluster stays plaintext, so the other tests cost what they did.
@Suite(.timeLimit(.minutes(1)))
struct PostgresTLSTests {

    static func store(_ url: String) throws -> PostgresClaimStore {
        try PostgresClaimStore(
            url: PostgresURL(url), configuration: .init(secret: PostgresTestDatabase.secret, operationTimeout: .seconds(10)))
    }

    /// A verify-full store and a default (`prefer`) one claim, and every connection they keep is encrypted.
    @Test(.enabled(if: PostgresTestDatabase.isAvailable, PostgresTestDatabase.skipReason))
    func verifyFullWithTheClustersRootAndPreferBothClaimOverEncryptedConnections() async throws {
        let cluster = try await PrivatePostgresCluster(tls: true)
        defer { cluster.stop() }
        let ca = try #require(cluster.caFile, "openssl made no certificate")
        let verified = try Self.store(
            cluster.url.replacingOccurrences(of: "@127.0.0.1:", with: "@localhost:") + "?sslmode=verify-full&sslrootcert=\(ca)")
        let preferred = try Self.store(cluster.url)
        let running = Task { try await verified.run() }
        defer { running.cancel() }
        let runningToo = Task { try await preferred.run() }
        defer { runningToo.cancel() }
        try await verified.migrate()
        let click = ClickIdentity(URL(string: "https://news.example.com/pub/acc?_ri_=tls")!)
        guard case .won = try await verified.claim(click, lease: .seconds(30)) else {
            Issue.record("a new click was not won")
            return
        }
        #expect(try await preferred.claim(click, lease: .seconds(30)) == .heldElsewhere)
        // The stores keep their connections: count them, and the encrypted ones, from a plaintext client.
        let (total, encrypted) = try await PostgresTestDatabase.withClients(database: cluster.url) { clients in
            var counts = (0, 0)
            for try await row in try await clients[0].query("""
                SELECT count(*)::integer, (count(*) FILTER (WHERE s.ssl))::integer
                FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) WHERE a.pid <> pg_backend_pid() AND a.datname = 'ulk'
                """).decode((Int, Int).self) { counts = row }
            return counts
        }
        #expect(total >= 2)
        #expect(encrypted == total)
    }

    /// The certificate names `localhost`, not 127.0.0.1: verify-full by address must refuse it, and say it was TLS.
    @Test(.enabled(if: PostgresTestDatabase.isAvailable, PostgresTestDatabase.skipReason))
    func verifyFullRefusesACertificateThatDoesNotNameTheHost() async throws {
        let cluster = try await PrivatePostgresCluster(tls: true)
        defer { cluster.stop() }
        let ca = try #require(cluster.caFile, "openssl made no certificate")
        let store = try Self.store(cluster.url + "?sslmode=verify-full&sslrootcert=\(ca)")
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
