import Foundation
import PostgresNIO
import Synchronization
import UniversalLinkKit
import UniversalLinkKitPostgres

/// How long after its holder starts publishing a waiting joiner has a click's outcome: the store's bounded poll
/// (5 ms, growing to 25 ms) next to a LISTEN/NOTIFY prototype, the alternative a reader would ask about.
///
/// The prototype, as a product version would do it: an `AFTER UPDATE OF settled` trigger notifies the row's key on
/// the channel when a claim settles (delivered when the publish commits); each process listens on one connection
/// and, told of a key it waits for, reads the row once (the same primary-key read the poll makes). The joiner
/// registers its interest before its claim, so no notification falls between the claim and the wait.
///
/// Each sample: the holder wins a click, the joiner finds it held and starts waiting, the holder "resolves" for a
/// random 1-40 ms (so the poll's phase varies as it does in production), then publishes.
struct JoinerLatency {
    static let channel = "ulk_claims_settled"

    let url: String
    let table: String
    let run: String
    let samples: Int

    func measure() async throws {
        let holderClient = try PostgresClient(benchmarking: url)
        let joinerClient = try PostgresClient(benchmarking: url)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await holderClient.run() }
            group.addTask { await joinerClient.run() }
            defer { group.cancelAll() }
            let configuration = PostgresClaimStore.Configuration(
                secret: Array("claims-benchmark-secret-0123456789".utf8), duplicateWindow: .seconds(600), tableName: table,
                operationTimeout: .seconds(30))
            let holder = try PostgresClaimStore(url: PostgresURL(url), configuration: configuration)
            let joiner = try PostgresClaimStore(url: PostgresURL(url), configuration: configuration)
            group.addTask { try await holder.run() }
            group.addTask { try await joiner.run() }
            try await holder.migrate()
            try await holderClient.query(PostgresQuery(unsafeSQL: """
                CREATE OR REPLACE FUNCTION \(table)_notify() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_notify('\(Self.channel)', NEW.key); RETURN NULL; END $$
                """))
            try await holderClient.query(PostgresQuery(unsafeSQL: """
                CREATE OR REPLACE TRIGGER \(table)_settled AFTER UPDATE OF settled ON \(table)
                FOR EACH ROW WHEN (NEW.settled) EXECUTE FUNCTION \(table)_notify()
                """))

            let notifications = Notifications()
            let (listening, listened) = AsyncStream<Void>.makeStream()
            group.addTask {
                try await joinerClient.withConnection { connection in
                    try await connection.listen(on: Self.channel) { sequence in
                        listened.yield()
                        for try await notification in sequence { notifications.deliver(notification.payload) }
                    }
                }
            }
            for await _ in listening { break }

            for round in 0..<2 {
                report("joiner wakes, poll 5-25 ms (\(round))", try await wakes(holder, joiner, notifications: nil, round: round))
                report("joiner wakes, LISTEN/NOTIFY (\(round))", try await wakes(holder, joiner, notifications: notifications, round: round))
            }
            try await holderClient.query(PostgresQuery(unsafeSQL: "DROP TRIGGER \(table)_settled ON \(table)"))
        }
    }

    /// The time from the start of each publish to the joiner having the outcome.
    private func wakes(
        _ holder: PostgresClaimStore, _ joiner: PostgresClaimStore, notifications: Notifications?, round: Int
    ) async throws -> [Duration] {
        let outcome = SharedOutcome(deepLinkURL: URL(string: "example-app://products/1"))
        let mode = notifications == nil ? "poll" : "notify"
        var wakes: [Duration] = []
        for index in 0..<samples {
            let click = ClickIdentity(URL(string: "https://news.example.com/pub/acc?_ri_=\(run)-join-\(mode)-\(round)-\(index)")!)
            guard case let .won(ticket) = try await holder.claim(click, lease: .seconds(30)) else { fatalError("not won") }
            let key = joiner.rowKey(of: click)
            notifications?.expect(key)
            guard try await joiner.claim(click, lease: .seconds(30)) == .heldElsewhere else { fatalError("not held") }
            let waiting = Task { () throws -> ContinuousClock.Instant in
                if let notifications { await notifications.wait(for: key) }
                guard try await joiner.awaitOutcome(of: click, within: .seconds(10)) != nil else { fatalError("no outcome") }
                return ContinuousClock.now
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 1...40)))
            let publishing = ContinuousClock.now
            try await holder.publish(outcome, of: click, ticket: ticket)
            wakes.append(try await waiting.value - publishing)
        }
        return wakes
    }
}

/// The keys a process waits for, woken by the listening connection.
final class Notifications: Sendable {
    private enum Entry {
        case expected(CheckedContinuation<Void, Never>?)
        case arrived
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// Registers interest in `key`, before the claim that may find it held.
    func expect(_ key: String) {
        entries.withLock { $0[key] = .expected(nil) }
    }

    /// Returns once `key`'s notification arrived (at once if it already did).
    func wait(for key: String) async {
        await withCheckedContinuation { continuation in
            let arrived = entries.withLock { entries -> Bool in
                if case .arrived? = entries[key] {
                    entries[key] = nil
                    return true
                }
                entries[key] = .expected(continuation)
                return false
            }
            if arrived { continuation.resume() }
        }
    }

    /// A notification for `key`; ignored when no one expects it.
    func deliver(_ key: String) {
        let waiter = entries.withLock { entries -> CheckedContinuation<Void, Never>? in
            guard case let .expected(continuation)? = entries[key] else { return nil }
            if let continuation {
                entries[key] = nil
                return continuation
            }
            entries[key] = .arrived
            return nil
        }
        waiter?.resume()
    }
}
