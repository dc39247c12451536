import Foundation
import Logging
import PostgresNIO
import Testing
import UniversalLinkKit
import UniversalLinkKitPostgres

/// The throwaway PostgreSQL server `Integrations/Scripts/with-postgres` starts, named by `ULK_TEST_POSTGRES_URL`.
/// The tests that need it are enabled only when that variable is set.
enum PostgresTestDatabase {
    /// The server's URL, when the tests run under `with-postgres`.
    static var url: String? { ProcessInfo.processInfo.environment["ULK_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 } }
    /// Whether the tests that need the server can run.
    static var isAvailable: Bool { url != nil }
    /// Why they are skipped otherwise.
    static let skipReason: Comment =
        "ULK_TEST_POSTGRES_URL is not set: run under Integrations/Scripts/with-postgres (needs PostgreSQL's initdb)"

    /// A 32-byte secret for the tests.
    static let secret = Array("integration-test-claim-secret-32".utf8)

    /// A table of its own for one test, so tests running at once do not see each other's rows.
    static func uniqueTable() -> String {
        "ulk_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
    }

    /// A client of the test server (of one of its databases: `database`, a URL ``createDatabase()`` gave).
    /// Plaintext: the server is on loopback.
    static func makeClient(maximumConnections: Int = 20, database: String? = nil) throws -> PostgresClient {
        let address = try PostgresURL(try #require(database ?? url))
        var configuration = PostgresClient.Configuration(
            host: address.host ?? "127.0.0.1", port: address.port, username: address.username, password: address.password,
            database: address.database, tls: .disable)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(2)
        return PostgresClient(configuration: configuration)
    }

    /// Runs `body` with clients that run meanwhile, then stops them.
    static func withClients<Result: Sendable>(
        _ count: Int = 1, database: String? = nil, _ body: ([PostgresClient]) async throws -> Result
    ) async throws -> Result {
        let clients = try (0..<count).map { _ in try makeClient(database: database) }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.run() } }
            defer { group.cancelAll() }
            return try await body(clients)
        }
    }

    /// A migrated store on a table of its own, with connections of its own (a replica's), on the test server (or
    /// on `database`, a URL ``createDatabase()`` gave). Its connections close when it is released.
    static func store(
        table: String, database: String? = nil, configure: (inout PostgresClaimStore.Configuration) -> Void = { _ in }
    ) async throws -> PostgresClaimStore {
        // Generous limits: a loaded 2-core machine can hold a statement for over a second, and a store that gives up
        // then is the designed fallback, not what these tests are about (the outage tests set their own).
        var configuration = PostgresClaimStore.Configuration(
            secret: secret, duplicateWindow: .seconds(60), tableName: table, operationTimeout: .seconds(10))
        configure(&configuration)
        let store = try PostgresClaimStore(url: PostgresURL(try #require(database ?? url)), configuration: configuration)
        try await store.migrate()
        return store
    }

    /// Polls `condition` every 20 ms until it holds or `limit` passes (for what only the database knows, like a
    /// lease's end).
    static func eventually(within limit: Duration = .seconds(10), _ condition: () async throws -> Bool) async rethrows -> Bool {
        let end = ContinuousClock.now + limit
        while ContinuousClock.now < end {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return try await condition()
    }
}

extension PostgresTestDatabase {
    /// A new, empty database on the test server; its URL.
    static func createDatabase() async throws -> String {
        let name = "ulk_db_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        try await withClients { clients in
            _ = try await clients[0].query("CREATE DATABASE \(unescaped: name)")
        }
        let base = try #require(url)
        let slash = try #require(base.range(of: "/", options: .backwards))
        return base[..<slash.upperBound] + name
    }
}
