import PostgresNIO
import UniversalLinkKit
import UniversalLinkKitPostgres

/// A replica's manager, sharing click claims with every other replica on the database, for as long as `body` runs.
func withSharedClaims<Result: Sendable>(
    databaseURL: String, secret: String, _ body: (LinkManager) async throws -> Result
) async throws -> Result {
    var configuration = LinkManager.Configuration(brandedDomains: ["news.example.com"], timeout: .seconds(5))
    let settings = PostgresClaimStore.Configuration(secret: Array(secret.utf8), duplicateWindow: configuration.duplicateWindow)
    var clientSettings = try PostgresURL(databaseURL).clientConfiguration
    // The statement timeout and connection lifetime the store relies on.
    settings.prepare(&clientSettings, lease: configuration.claimLease)
    let client = PostgresClient(configuration: clientSettings)
    let store = try PostgresClaimStore(client: client, configuration: settings)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        // The client must run for as long as the store is used (a ServiceGroup service does the same).
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        try await store.migrate()
        configuration.claimStore = store
        return try await body(LinkManager(configuration: configuration))
    }
}
