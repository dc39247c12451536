import Foundation
import PostgresNIO
import Testing
import UniversalLinkKit

/// The PostgreSQL page's "In your own server" function is `PostgresSnippet.swift`, compiled by this target and run
/// against the throwaway cluster.
struct PostgresSnippetTests {
    static let catalog = "../../Sources/UniversalLinkKitPostgres/Documentation.docc/UniversalLinkKitPostgres.md"

    @Test func thePagesSnippetIsTheCompiledFile() throws {
        try ReadmeSnippetTests.expectSnippet(in: Self.catalog, is: "PostgresSnippet.swift")
    }

    @Test(.enabled(if: PostgresTestDatabase.isAvailable, PostgresTestDatabase.skipReason), .timeLimit(.minutes(1)))
    func thePagesSnippetRunsAndCreatesTheClaimsTable() async throws {
        let database = try await PostgresTestDatabase.createDatabase()
        let account = try #require(URL(string: "https://news.example.com/account"))
        let answered = try await withSharedClaims(databaseURL: database, secret: "snippet-test-secret-0123456789ab") { manager in
            // Not a pub-web link: refused before any claim or request, so the test needs no network.
            do throws(LinkError) {
                _ = try await manager.resolve(account)
                return false
            } catch {
                return error.code == .notPubWebLink
            }
        }
        #expect(answered)
        let tables = try await PostgresTestDatabase.withClients(database: database) { clients in
            var names: [String] = []
            for try await name in try await clients[0].query("SELECT tablename::text FROM pg_tables WHERE schemaname = 'public' ORDER BY 1").decode(String.self) {
                names.append(name)
            }
            return names
        }
        #expect(tables == ["ulk_claims", "ulk_schema_versions"])
    }
}
