import Foundation
import PostgresNIO
import Synchronization
import Testing
import UniversalLinkKit
import UniversalLinkKitPostgres

/// The store's table stays small while distinct clicks add up, in a suite of its own for its time limit. Whether a
/// claim slows down as they add up is a timing, measured by `claims-benchmark growth` rather than asserted here.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, PostgresTestDatabase.skipReason), .timeLimit(.minutes(4)))
struct PostgresClaimGrowthTests {
    static let outcome = SharedOutcome(
        deepLinkURL: URL(string: "example-app://products/1"), webLinkURL: URL(string: "https://www.example.com/products/1"))

    /// 20 000 distinct clicks through the store, as a fleet's replica makes them, on the default table (prepared
    /// statements) of a database of its own. Rows expire after a 50 ms window; the clean-ups the claims trigger (every
    /// 250 claims, 1 000 rows at most) must keep the table small all along, not only at the end. The table's file is
    /// not asserted: deleted rows stay dead tuples until autovacuum's first visit, after which the file is reused.
    @Test func distinctClicksLeaveABoundedTable() async throws {
        let (count, segments, width) = (20_000, 10, 16)
        let database = try await PostgresTestDatabase.createDatabase()
        let (rows, latencies, elapsed) = try await PostgresTestDatabase.withClients(database: database) { clients in
            let store = try await PostgresTestDatabase.store(table: PostgresClaimStore.Configuration.defaultTableName, database: database) {
                $0.duplicateWindow = .milliseconds(50)
            }
            var rows: [Int] = []
            var latencies: [[Duration]] = []
            let started = ContinuousClock.now
            for segment in 0..<segments {
                let next = Counter(segment * count / segments)
                let end = (segment + 1) * count / segments
                let samples = try await withThrowingTaskGroup(of: [Duration].self) { group in
                    for _ in 0..<width {
                        group.addTask {
                            var samples: [Duration] = []
                            while true {
                                let index = next.take()
                                guard index < end else { return samples }
                                let click = ClickIdentity(URL(string: "https://news.example.com/pub/acc?_ri_=\(index)")!)
                                let claimed = ContinuousClock.now
                                guard case let .won(ticket) = try await store.claim(click, lease: .milliseconds(50)) else {
                                    throw PostgresClaimStoreError(code: .databaseFailed, message: "a new click was not won")
                                }
                                samples.append(ContinuousClock.now - claimed)
                                // Half the clicks settle, half are left for their lease to end, as failed winners leave them.
                                if index.isMultiple(of: 2) { try await store.publish(Self.outcome, of: click, ticket: ticket) }
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                latencies.append(samples.sorted())
                let query = "SELECT count(*)::integer FROM \(PostgresClaimStore.Configuration.defaultTableName)"
                for try await value in try await clients[0].query(PostgresQuery(unsafeSQL: query)).decode(Int.self) {
                    rows.append(value)
                }
            }
            return (rows, latencies, ContinuousClock.now - started)
        }
        func median(_ sorted: [Duration]) -> Duration { sorted[sorted.count / 2] }
        let summary = "\(count) clicks in \(elapsed); rows after each \(count / segments): \(rows);"
            + " claim p50 per segment: \(latencies.map { median($0) })"
        // Without clean-ups every row would stay (20 000 at the end); with them, the live window and the batch in
        // progress.
        #expect(rows.count == segments)
        #expect(rows.allSatisfy { $0 < 5_000 }, "\(summary)")
    }
}

/// The next index for workers sharing one range.
private final class Counter: Sendable {
    private let value: Mutex<Int>

    init(_ start: Int) {
        value = Mutex(start)
    }

    /// The next index.
    func take() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
