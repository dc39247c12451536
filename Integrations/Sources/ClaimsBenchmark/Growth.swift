import Foundation
import PostgresNIO
import UniversalLinkKit
import UniversalLinkKitPostgres

/// The store's growth at full size: `clicks` distinct clicks through one store, 16 at a time, on the default
/// table (prepared statements) of a database of its own, with a 50 ms window and the default clean-ups (every 250
/// claims or second, 1 000 rows at most). After each tenth: the table's rows and size, and the claims' p50 / p99,
/// so a table that grows or a claim that slows with it shows. `PostgresClaimGrowthTests` asserts the bounded table at
/// 20 000 clicks; this one takes a count, and reports the latencies, the heap and indexes apart, dead rows and
/// autovacuum runs.
struct Growth {
    let url: String
    let clicks: Int

    func measure() async throws {
        let name = "ulk_growth_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let admin = try PostgresClient(benchmarking: url)
        let base = url[..<(url.range(of: "/", options: .backwards)?.upperBound ?? url.endIndex)]
        let client = try PostgresClient(benchmarking: String(base + name))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await admin.run() }
            defer { group.cancelAll() }
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
            group.addTask { await client.run() }
            let store = try PostgresClaimStore(
                url: PostgresURL(String(base + name)),
                configuration: .init(secret: Array("claims-benchmark-secret-0123456789".utf8), duplicateWindow: .milliseconds(50),
                    operationTimeout: .seconds(30)))
            group.addTask { try await store.run() }
            try await store.migrate()
            let outcome = SharedOutcome(deepLinkURL: URL(string: "example-app://products/1"))
            let (segments, width) = (10, 16)
            let started = ContinuousClock.now
            for segment in 0..<segments {
                let next = Counter()
                let (first, size) = (segment * clicks / segments, clicks / segments)
                let segmentStarted = ContinuousClock.now
                let samples = try await withThrowingTaskGroup(of: [Duration].self) { workers in
                    for _ in 0..<width {
                        workers.addTask {
                            var samples: [Duration] = []
                            while true {
                                let index = next.take()
                                guard index < size else { return samples }
                                let click = ClickIdentity(URL(string: "https://news.example.com/pub/acc?_ri_=\(first + index)")!)
                                let claimed = ContinuousClock.now
                                guard case let .won(ticket) = try await store.claim(click, lease: .milliseconds(50)) else {
                                    fatalError("a new click was not won")
                                }
                                samples.append(ContinuousClock.now - claimed)
                                // Half settle, half are left for their lease to end, as failed winners leave them.
                                if index.isMultiple(of: 2) { try await store.publish(outcome, of: click, ticket: ticket) }
                            }
                        }
                    }
                    return try await workers.reduce(into: []) { $0 += $1 }
                }.sorted()
                let took = ContinuousClock.now - segmentStarted
                var (rows, heap, indexes, dead, vacuums) = (0, 0, 0, 0, 0)
                let query = """
                    SELECT (SELECT count(*)::integer FROM ulk_claims), pg_relation_size('ulk_claims')::integer,
                        pg_indexes_size('ulk_claims')::integer, n_dead_tup::integer, autovacuum_count::integer
                    FROM pg_stat_user_tables WHERE relname = 'ulk_claims'
                    """
                let decoded = try await client.query(PostgresQuery(unsafeSQL: query)).decode((Int, Int, Int, Int, Int).self)
                for try await row in decoded { (rows, heap, indexes, dead, vacuums) = row }
                say(String(
                    format: "growth, after %6d clicks: %5d rows, %6d kB (heap %6d, indexes %6d), %6d dead, %2d autovacuums;"
                        + " claim p50 %6.0f µs, p99 %6.0f µs; %5.0f clicks/s",
                    first + size, rows, (heap + indexes) / 1024, heap / 1024, indexes / 1024, dead, vacuums,
                    microseconds(samples[samples.count / 2]), microseconds(samples[samples.count * 99 / 100]),
                    Double(size) / (microseconds(took) / 1e6)))
            }
            say(String(format: "growth: %d clicks in %.1f s", clicks, microseconds(ContinuousClock.now - started) / 1e6))
        }
    }

    private func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
}
