import Crypto
import Foundation
import InMemoryLogging
import Logging
import PostgresNIO
import Testing
import UniversalLinkKit
@testable import UniversalLinkKitPostgres

/// The PostgreSQL claim store against a real server (`Integrations/Scripts/with-postgres`).
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, PostgresTestDatabase.skipReason), .timeLimit(.minutes(2)))
struct PostgresClaimStoreTests {
    static let click = ClickIdentity(URL(string: "https://news.example.com/pub/acc?_ri_=recipient-4711&campaign=spring")!)
    static let outcome = SharedOutcome(
        deepLinkURL: URL(string: "example-app://products/1"), webLinkURL: URL(string: "https://www.example.com/products/1"))

    @Test func ofManyConcurrentClaimsOfOneClickFromSeveralClientsExactlyOneWins() async throws {
        let table = PostgresTestDatabase.uniqueTable()
        let stores = try await withThrowingTaskGroup(of: PostgresClaimStore.self) { group in
            for _ in 0..<3 { group.addTask { try await PostgresTestDatabase.store(table: table) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let claims = try await withThrowingTaskGroup(of: SharedClaim.self) { group in
            for index in 0..<60 {
                let store = stores[index % stores.count]
                group.addTask { try await store.claim(Self.click, lease: .seconds(30)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let won = claims.filter { if case .won = $0 { true } else { false } }
        #expect(won.count == 1)
        #expect(claims.filter { $0 == .heldElsewhere }.count == 59)
    }

    @Test(arguments: [
        outcome,
        SharedOutcome(errorCode: .httpStatus, statusCode: 500),
        SharedOutcome(webLinkURL: URL(string: "https://www.example.com/")),
    ])
    func aPublishedOutcomeSettlesTheClaimsThatFollow(outcome: SharedOutcome) async throws {
        let store = try await PostgresTestDatabase.store(table: PostgresTestDatabase.uniqueTable())
        guard case let .won(ticket) = try await store.claim(Self.click, lease: .seconds(30)) else {
            Issue.record("the first claim did not win")
            return
        }
        #expect(!ticket.isTakeover)
        try await store.publish(outcome, of: Self.click, ticket: ticket)
        #expect(try await store.claim(Self.click, lease: .seconds(30)) == .settled(outcome))
        #expect(try await store.awaitOutcome(of: Self.click, within: .seconds(5)) == outcome)
    }

    @Test func anExpiredLeaseIsTakenOverWithANewTokenAndTheOldTokenIsIgnored() async throws {
        let store = try await PostgresTestDatabase.store(table: PostgresTestDatabase.uniqueTable())
        guard case let .won(first) = try await store.claim(Self.click, lease: .milliseconds(300)) else {
            Issue.record("the first claim did not win")
            return
        }
        #expect(try await store.claim(Self.click, lease: .milliseconds(300)) == .heldElsewhere)
        var second: ClaimTicket?
        #expect(
            try await PostgresTestDatabase.eventually {
                if case let .won(ticket) = try await store.claim(Self.click, lease: .seconds(30)) { second = ticket }
                return second != nil
            })
        let takeover = try #require(second)
        #expect(takeover.isTakeover)
        #expect(takeover.token != first.token)

        // The first holder comes back late: its outcome and its release are ignored.
        try await store.publish(SharedOutcome(errorCode: .timeout), of: Self.click, ticket: first)
        try await store.release(Self.click, ticket: first)
        #expect(try await store.claim(Self.click, lease: .seconds(30)) == .heldElsewhere)
        try await store.publish(Self.outcome, of: Self.click, ticket: takeover)
        #expect(try await store.claim(Self.click, lease: .seconds(30)) == .settled(Self.outcome))
    }

    @Test func aReleasedClaimIsWonAgainAtOnceWithoutATakeover() async throws {
        let store = try await PostgresTestDatabase.store(table: PostgresTestDatabase.uniqueTable())
        guard case let .won(ticket) = try await store.claim(Self.click, lease: .seconds(30)) else {
            Issue.record("the first claim did not win")
            return
        }
        try await store.release(Self.click, ticket: ticket)
        guard case let .won(again) = try await store.claim(Self.click, lease: .seconds(30)) else {
            Issue.record("the claim after the release did not win")
            return
        }
        #expect(!again.isTakeover)
    }

    @Test func awaitOutcomeWakesWhenTheHolderPublishes() async throws {
        let table = PostgresTestDatabase.uniqueTable()
        let holder = try await PostgresTestDatabase.store(table: table)
        let joiner = try await PostgresTestDatabase.store(table: table)
        guard case let .won(ticket) = try await holder.claim(Self.click, lease: .seconds(30)) else {
            Issue.record("the first claim did not win")
            return
        }
        #expect(try await joiner.claim(Self.click, lease: .seconds(30)) == .heldElsewhere)
        let waiting = Task { try await joiner.awaitOutcome(of: Self.click, within: .seconds(20)) }
        try await holder.publish(Self.outcome, of: Self.click, ticket: ticket)
        let published = ContinuousClock.now
        #expect(try await waiting.value == Self.outcome)
        // A poll interval or so after the publish, far from the 20 s allowed.
        #expect(ContinuousClock.now - published < .seconds(1))
    }

    @Test func awaitOutcomeReturnsNilWhenTheHoldersLeaseEndsWithNoOutcome() async throws {
        let store = try await PostgresTestDatabase.store(table: PostgresTestDatabase.uniqueTable())
        guard case .won = try await store.claim(Self.click, lease: .milliseconds(400)) else {
            Issue.record("the first claim did not win")
            return
        }
        let started = ContinuousClock.now
        #expect(try await store.awaitOutcome(of: Self.click, within: .seconds(20)) == nil)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func awaitOutcomeEndsWhenItsTimeIsUpOrItsTaskIsCancelled() async throws {
        let store = try await PostgresTestDatabase.store(table: PostgresTestDatabase.uniqueTable())
        _ = try await store.claim(Self.click, lease: .seconds(60))
        let started = ContinuousClock.now
        await #expect(throws: CancellationError.self) {
            try await store.awaitOutcome(of: Self.click, within: .milliseconds(300))
        }
        #expect(ContinuousClock.now - started < .seconds(2))

        let waiting = Task { try await store.awaitOutcome(of: Self.click, within: .seconds(60)) }
        // Cancelled once it is surely polling: the store answered a claim in the meantime.
        #expect(try await store.claim(Self.click, lease: .seconds(60)) == .heldElsewhere)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func rowsHoldTheKeyedHashOfTheClickAndNeverTheLink() async throws {
        let table = PostgresTestDatabase.uniqueTable()
        let rows = try await PostgresTestDatabase.withClients { clients in
            let store = try await PostgresTestDatabase.store(table: table)
            guard case let .won(ticket) = try await store.claim(Self.click, lease: .seconds(30)) else {
                throw PostgresClaimStoreError(code: .databaseFailed, message: "the first claim did not win")
            }
            try await store.publish(Self.outcome, of: Self.click, ticket: ticket)
            // A failure too, keyed by a link whose host, path and query must not reach the table.
            let failedClick = ClickIdentity(URL(string: "https://news.example.com/pub/acc?_ri_=recipient-4711&campaign=fall")!)
            guard case let .won(failedTicket) = try await store.claim(failedClick, lease: .seconds(30)) else {
                throw PostgresClaimStoreError(code: .databaseFailed, message: "the second claim did not win")
            }
            let failure = SharedOutcome(errorCode: .httpStatus, statusCode: 500)
            try await store.publish(failure, of: failedClick, ticket: failedTicket)
            var rows: [String] = []
            for try await row in try await clients[0].query("SELECT row_to_json(t)::text FROM \(unescaped: table) t").decode(String.self) {
                rows.append(row)
            }
            return rows
        }
        #expect(rows.count == 2)
        let row = rows.joined(separator: "\n")
        let expected = HMAC<SHA256>.authenticationCode(
            for: Data(Self.click.key.utf8), using: SymmetricKey(data: PostgresTestDatabase.secret)
        ).map { String(format: "%02x", $0) }.joined()
        #expect(row.contains(expected))
        for fragment in ["recipient-4711", "_ri_", "news.example.com", "/pub/acc", "campaign"] {
            #expect(!row.contains(fragment), "the row holds \(fragment): \(row)")
        }
        #expect(row.contains("example-app://products/1"))
    }

    /// The store's own connection over the cluster's Unix socket (no TLS request: `disable` is the socket's default).
    @Test func aStoreOnTheUnixSocketClaims() async throws {
        let socket = try #require(ProcessInfo.processInfo.environment["ULK_TEST_POSTGRES_SOCKET"])
        let port = try PostgresURL(try #require(PostgresTestDatabase.url)).port
        let url = try PostgresURL("postgres://ulk@localhost:\(port)/ulk?host=\(socket)")
        #expect(url.sslMode == "disable")
        let store = try PostgresClaimStore(
            url: url, configuration: .init(secret: PostgresTestDatabase.secret, tableName: PostgresTestDatabase.uniqueTable()))
        let running = Task { try await store.run() }
        defer { running.cancel() }
        try await store.migrate()
        guard case .won = try await store.claim(Self.click, lease: .seconds(30)) else {
            Issue.record("a new click was not won")
            return
        }
    }

    /// Twenty claims at once through a store of two connections: all made, over two sessions that stay open; once
    /// the server ends them, the store opens new ones.
    @Test func aStoreUsesAtMostItsMaximumConnectionsKeepsThemAndReplacesOnesTheServerEnded() async throws {
        let database = try await PostgresTestDatabase.createDatabase()
        let name = try #require(database.split(separator: "/").last.map(String.init))
        let store = try await PostgresTestDatabase.store(table: PostgresTestDatabase.uniqueTable(), database: database) {
            $0.maximumConnections = 2
        }
        func claimTwenty(_ round: String) async throws -> [SharedClaim] {
            try await withThrowingTaskGroup(of: SharedClaim.self) { group in
                for index in 0..<20 {
                    let click = ClickIdentity(URL(string: "https://news.example.com/pub/acc?_ri_=\(round)-\(index)")!)
                    group.addTask { try await store.claim(click, lease: .seconds(30)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        try await PostgresTestDatabase.withClients { clients in
            func sessions() async throws -> [Int] {
                var pids: [Int] = []
                for try await pid in try await clients[0].query(
                    "SELECT pid FROM pg_stat_activity WHERE datname = \(name) ORDER BY pid"
                ).decode(Int.self) { pids.append(pid) }
                return pids
            }
            #expect(try await claimTwenty("a").allSatisfy { if case .won = $0 { true } else { false } })
            let kept = try await sessions()
            #expect(kept.count == 2, "\(kept)")
            for pid in kept { _ = try await clients[0].query("SELECT pg_terminate_backend(\(pid)::integer)") }
            // The first operations may find a connection the server just ended; the store drops it and opens another.
            #expect(await PostgresTestDatabase.eventually { (try? await store.checkReachable()) != nil })
            #expect(try await claimTwenty("b").allSatisfy { if case .won = $0 { true } else { false } })
            let replaced = try await sessions()
            #expect(replaced.count == 2, "\(replaced)")
            #expect(Set(replaced).isDisjoint(with: kept))
        }
    }

    @Test func theMigrationRunConcurrentlyByManyClientsSucceedsOnce() async throws {
        let table = PostgresTestDatabase.uniqueTable()
        try await PostgresTestDatabase.withClients { clients in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let store = try PostgresClaimStore(
                            url: PostgresURL(try #require(PostgresTestDatabase.url)),
                            configuration: .init(secret: PostgresTestDatabase.secret, tableName: table))
                        try await store.migrate()
                        try await store.migrate()
                    }
                }
                try await group.waitForAll()
            }
            var versions: [Int] = []
            let rows = try await clients[0].query("SELECT version FROM ulk_schema_versions WHERE table_name = \(table)")
            for try await version in rows.decode(Int.self) { versions.append(version) }
            #expect(versions == [2])
        }
    }

    @Test func aTableMigratedByANewerLibraryIsRefusedWithSchemaTooNew() async throws {
        let table = PostgresTestDatabase.uniqueTable()
        try await PostgresTestDatabase.withClients { clients in
            let store = try await PostgresTestDatabase.store(table: table)
            try await clients[0].query("UPDATE ulk_schema_versions SET version = 99 WHERE table_name = \(table)")
            let error = await #expect(throws: PostgresClaimStoreError.self) { try await store.migrate() }
            #expect(error?.code == .schemaTooNew)
            #expect(error?.message.contains("upgrade this process") == true)
        }
    }

    @Test func anUnreachableDatabaseFailsAClaimPromptlyInsteadOfHanging() async throws {
        // A port nothing listens on, and one that accepts connections but never answers.
        let silent = try SilentListener()
        defer { silent.close() }
        for port in [try SilentListener.closedPort(), silent.port] {
            let store = try PostgresClaimStore(
                url: PostgresURL("postgres://ulk:hunter2-secret@127.0.0.1:\(port)/ulk?sslmode=disable"),
                configuration: .init(secret: PostgresTestDatabase.secret, operationTimeout: .milliseconds(500)))
            let started = ContinuousClock.now
            do {
                _ = try await store.claim(Self.click, lease: .seconds(5))
                Issue.record("a claim on an unreachable database succeeded")
            } catch let error as PostgresClaimStoreError {
                #expect(!error.description.contains("hunter2-secret"))
            }
            #expect(ContinuousClock.now - started < .seconds(2), "port \(port)")
            let waitStarted = ContinuousClock.now
            await #expect(throws: (any Error).self) { try await store.awaitOutcome(of: Self.click, within: .seconds(1)) }
            #expect(ContinuousClock.now - waitStarted < .seconds(2))
        }
    }

    /// A claim held up by a lock past the store's limit, on connections without a statement timeout: the database makes
    /// it once the lock goes, after the caller was told `timedOut`. The store gives it back, so the click is not
    /// held for a lease by a claim nobody resolves.
    @Test func aClaimTheDatabaseMakesAfterTheStoreStoppedWaitingIsReleasedAtOnce() async throws {
        let table = PostgresTestDatabase.uniqueTable()
        let log = InMemoryLogHandler()
        try await PostgresTestDatabase.withClients(2) { clients in
            var configuration = PostgresClaimStore.Configuration(
                secret: PostgresTestDatabase.secret, duplicateWindow: .seconds(60), tableName: table,
                operationTimeout: .milliseconds(300))
            configuration.reclaimEvery = 1000
            configuration.sendsStatementTimeout = false
            var logger = Logger(label: "store", factory: { _ in log })
            logger.logLevel = .debug
            let store = try PostgresClaimStore(
                url: PostgresURL(try #require(PostgresTestDatabase.url)), configuration: configuration, logger: logger)
            try await store.migrate()
            let lock = TableLock(client: clients[1], table: table)
            try await lock.take()
            let error = await #expect(throws: PostgresClaimStoreError.self) { try await store.claim(Self.click, lease: .seconds(60)) }
            #expect(error?.code == .timedOut)
            lock.release()
            // The late claim commits once the lock goes, and the store gives it back.
            let released = await PostgresTestDatabase.eventually(within: .seconds(20)) {
                log.entries.contains { $0.message.description.hasPrefix("claim made after its caller stopped waiting: released") }
            }
            #expect(released, "\(log.entries.map(\.message))")
            #expect(try await TableLock.rows(in: table, key: store.rowKey(of: Self.click), client: clients[1]) == 0)
            guard case .won = try await store.claim(Self.click, lease: .seconds(60)) else {
                Issue.record("the click is still held")
                return
            }
        }
    }
}

/// `LOCK TABLE ... IN ACCESS EXCLUSIVE MODE` held by a transaction of its own until ``release()``: a database that
/// stalls on one table while it answers everything else.
final class TableLock: Sendable {
    let client: PostgresClient
    let table: String
    private let (released, releasing) = AsyncStream<Void>.makeStream()
    private let (taken, taking) = AsyncStream<Void>.makeStream()

    init(client: PostgresClient, table: String) {
        self.client = client
        self.table = table
    }

    /// Takes the lock and returns once it is held.
    func take() async throws {
        let (client, table, released, taking) = (client, table, released, taking)
        Task {
            try await client.withTransaction(logger: Logger(label: "lock")) { connection in
                try await connection.query("LOCK TABLE \(unescaped: table) IN ACCESS EXCLUSIVE MODE", logger: Logger(label: "lock"))
                taking.yield()
                for await _ in released { break }
            }
        }
        for await _ in taken { break }
    }

    /// Ends the transaction, and the lock with it.
    func release() {
        releasing.yield()
    }

    /// The rows of `key` in `table`.
    static func rows(in table: String, key: String, client: PostgresClient) async throws -> Int {
        var count = 0
        for try await value in try await client.query("SELECT count(*)::integer FROM \(unescaped: table) WHERE key = \(key)").decode(Int.self) {
            count = value
        }
        return count
    }
}
