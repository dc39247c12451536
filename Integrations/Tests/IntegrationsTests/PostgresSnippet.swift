import UniversalLinkKit
import UniversalLinkKitPostgres

/// A replica's manager, sharing click claims with every other replica on the database, for as long as `body` runs.
func withSharedClaims<Result: Sendable>(
    databaseURL: String, secret: String, _ body: (LinkManager) async throws -> Result
) async throws -> Result {
    var configuration = LinkManager.Configuration(brandedDomains: ["news.example.com"], timeout: .seconds(5))
    let settings = PostgresClaimStore.Configuration(secret: Array(secret.utf8), duplicateWindow: configuration.duplicateWindow)
    let store = try PostgresClaimStore(url: PostgresURL(databaseURL), configuration: settings)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        // The store keeps its connections while it runs (a ServiceGroup service does the same).
        group.addTask { try await store.run() }
        defer { group.cancelAll() }
        try await store.migrate()
        configuration.claimStore = store
        return try await body(LinkManager(configuration: configuration))
    }
}
