import Foundation
import Testing
import UniversalLinkKitPostgres

/// The store against a loopback server that is not PostgreSQL: a startup answered with a 2 GiB (or a too short)
/// message, and a server that declines TLS where `sslmode` requires it. No database needed.
@Suite(.timeLimit(.minutes(1)))
struct PostgresHostileServerTests {
    static func store(port: Int, sslMode: String) throws -> PostgresClaimStore {
        try PostgresClaimStore(
            url: PostgresURL("postgres://ulk@127.0.0.1:\(port)/ulk?sslmode=\(sslMode)"),
            configuration: .init(secret: PostgresTestDatabase.secret, operationTimeout: .seconds(20)))
    }

    /// The memory a user cares about: the client reads at most the cap plus one read (64 KiB) of what the server
    /// sends; the count also holds what the kernel buffered for the client, so the bound has that room.
    static let acceptedBound = PostgresClaimStore.maximumMessageLength + 64 * 1024

    @Test(arguments: ["disable", "prefer"])
    func aStartupAnsweredWithA2GiBMessageFailsAtOnceNamingTheCapAndIsReadNoFurther(sslMode: String) async throws {
        let server = try HostileDatabase(declaredLength: 1 << 31)
        defer { server.close() }
        let store = try Self.store(port: server.port, sslMode: sslMode)
        let running = Task { try await store.run() }
        defer { running.cancel() }
        let expected = "the database server sent a message of 2147483648 bytes; the largest this store reads is 1048576 bytes"

        let started = ContinuousClock.now
        let checked = await #expect(throws: PostgresClaimStoreError.self) { try await store.checkReachable() }
        #expect(checked?.code == .databaseFailed)
        #expect(checked?.message.contains(expected) == true, "\(String(describing: checked))")
        let migrated = await #expect(throws: PostgresClaimStoreError.self) { try await store.migrate() }
        #expect(migrated?.code == .databaseFailed)
        #expect(migrated?.message.contains(expected) == true, "\(String(describing: migrated))")
        // Refused as the header arrived, not at the end of the 20 s operation limit.
        #expect(ContinuousClock.now - started < .seconds(10))

        let connections = await server.connections(2)
        #expect(connections.map(\.startedUp) == [true, true])
        #expect((connections.map(\.accepted).max() ?? 0) <= Self.acceptedBound, "\(connections.map(\.accepted))")
    }

    @Test func aStartupAnsweredWithALengthShorterThanItsOwnFieldIsRefused() async throws {
        let server = try HostileDatabase(declaredLength: 2)
        defer { server.close() }
        let store = try Self.store(port: server.port, sslMode: "disable")
        let running = Task { try await store.run() }
        defer { running.cancel() }
        let error = await #expect(throws: PostgresClaimStoreError.self) { try await store.checkReachable() }
        #expect(error?.code == .databaseFailed)
        #expect(error?.message.contains("a malformed message (a length of 2, less than its own 4 bytes)") == true, "\(String(describing: error))")
    }

    @Test(arguments: ["require", "verify-full"])
    func aServerThatDeclinesTLSIsRefusedWhenTheSSLModeRequiresItAndNoStartupIsSentInPlaintext(sslMode: String) async throws {
        let server = try HostileDatabase(declaredLength: 1 << 31, tlsAnswer: UInt8(ascii: "N"))
        defer { server.close() }
        let store = try Self.store(port: server.port, sslMode: sslMode)
        let running = Task { try await store.run() }
        defer { running.cancel() }
        let error = await #expect(throws: PostgresClaimStoreError.self) { try await store.checkReachable() }
        #expect(error?.code == .databaseFailed)
        #expect(error?.message.contains("does not accept TLS, and sslmode=\(sslMode) needs it") == true, "\(String(describing: error))")
        let connections = await server.connections(1)
        #expect(connections.map(\.startedUp) == [false])
    }

    /// `link-service` at start: exit 2 with one line naming `ULK_POSTGRES_URL` and the cap.
    @Test func linkServiceExitsTwoNamingTheCapWhenTheDatabaseAnswersWithA2GiBMessage() async throws {
        let server = try HostileDatabase(declaredLength: 1 << 31)
        defer { server.close() }
        let started = ContinuousClock.now
        let service = try ServiceProcess(environment: LinkServiceFleetTests.environment(
            database: "postgres://ulk@127.0.0.1:\(server.port)/ulk"))
        defer { service.stop() }
        #expect(await service.exitStatus() == 2)
        #expect(ContinuousClock.now - started < .seconds(10))
        let log = await service.finalLog()
        #expect(log.contains("ULK_POSTGRES_URL"), "\(log)")
        #expect(log.contains("the largest this store reads is 1048576 bytes"), "\(log)")
        let connections = await server.connections(1)
        #expect((connections.map(\.accepted).max() ?? 0) <= Self.acceptedBound, "\(connections.map(\.accepted))")
    }
}
