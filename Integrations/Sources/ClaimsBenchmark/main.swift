// `claims-benchmark`: the cost of sharing click claims through PostgreSQL, next to claims kept in the process.
// Needs a database: run it under the throwaway cluster,
//
//     Integrations/Scripts/with-postgres swift run -c release --package-path Integrations claims-benchmark [N] [TABLE] [SECTIONS] [GROWTH_CLICKS]
//
// SECTIONS, comma-separated, all by default:
// - `latency`: p50 / p90 / p99 of a claim + publish of a new click (what a replica's winner adds), a claim of a click
//   settled by another (what a duplicate costs), and a LinkManager resolution of a new link against the loopback
//   Response Handler stub with and without the store;
// - `throughput`: one LinkManager (one replica) resolving N distinct links, 32 at a time, with in-process claims and
//   with the store: links per second;
// - `joiners`: how long after the holder starts publishing a waiting joiner has the outcome, with the store's bounded
//   poll and with a LISTEN/NOTIFY prototype (a trigger notifies on settle; the joiner listens on one connection and
//   reads the row when told). Installs the trigger on the table for the section and drops it after;
// - `growth` (only when named): GROWTH_CLICKS (100 000 by default) distinct clicks through the store on a database of
//   their own, the table's rows and size and the claims' latency after each tenth (`Growth`). Past a minute's run,
//   autovacuum's visits show in the size column.
// Figures from a shared or busy machine mean little: note the load average next to them.
import Foundation
import PostgresNIO
import UniversalLinkKit
import UniversalLinkKitPostgres
import UniversalLinkKitTesting

guard let url = ProcessInfo.processInfo.environment["ULK_TEST_POSTGRES_URL"] else {
    FileHandle.standardError.write(Data("claims-benchmark: set ULK_TEST_POSTGRES_URL (run under Integrations/Scripts/with-postgres)\n".utf8))
    exit(2)
}
let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2000
// The default table's statements are prepared once per connection; another table's are planned on every run.
let table = CommandLine.arguments.dropFirst(2).first ?? PostgresClaimStore.Configuration.defaultTableName
let sections = Set((CommandLine.arguments.dropFirst(3).first ?? "latency,throughput,joiners").split(separator: ",").map(String.init))
let growthClicks = CommandLine.arguments.dropFirst(4).first.flatMap(Int.init) ?? 100_000

/// Writes `line` at once (`print` buffers when the output is a file), so a run cut short keeps what it measured.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func report(_ name: String, _ samples: [Duration]) {
    let sorted = samples.sorted()
    func percentile(_ p: Double) -> String {
        let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        return String(format: "%8.1f µs", Double(value.components.attoseconds) / 1e12 + Double(value.components.seconds) * 1e6)
    }
    say("\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) n=\(sorted.count)  p50 \(percentile(0.5))  p90 \(percentile(0.9))  p99 \(percentile(0.99))")
}

func measure(_ times: Int, _ body: (Int) async throws -> Void) async rethrows -> [Duration] {
    var samples: [Duration] = []
    samples.reserveCapacity(times)
    for index in 0..<times {
        let started = ContinuousClock.now
        try await body(index)
        samples.append(ContinuousClock.now - started)
    }
    return samples
}

let client = try PostgresClient(benchmarking: url)
let running = Task { await client.run() }
let store = try PostgresClaimStore(
    url: PostgresURL(url),
    configuration: .init(
        secret: Array("claims-benchmark-secret-0123456789".utf8), duplicateWindow: .seconds(600), tableName: table,
        // A busy machine can hold a statement past the default 1 s; giving up is not what is measured here.
        operationTimeout: .seconds(30)))
let storeRunning = Task { try await store.run() }
try await store.migrate()
let run = UUID().uuidString.prefix(8)
let outcome = SharedOutcome(deepLinkURL: URL(string: "example-app://products/1"), webLinkURL: URL(string: "https://www.example.com/products/1"))
func click(_ kind: String, _ index: Int) -> ClickIdentity {
    ClickIdentity(URL(string: "https://news.example.com/pub/acc?_ri_=\(run)-\(kind)-\(index)")!)
}

// Warm-up: connections open, statements planned.
_ = try await measure(200) { index in
    if case let .won(ticket) = try await store.claim(click("warm", index), lease: .seconds(12)) {
        try await store.publish(outcome, of: click("warm", index), ticket: ticket)
    }
}
if sections.contains("latency") {
    // The floor: one round trip of postgres-nio's client to the database, no table.
    report("SELECT 1 through the client (floor)", try await measure(count) { _ in
        _ = try await client.query("SELECT 1").collect()
    })
    // The same through the store's time limit (a task for the statement, one for the timer): what the limit costs.
    report("SELECT 1 within the store's time limit", try await measure(count) { _ in
        try await store.checkReachable()
    })
    report("claim + publish, new click", try await measure(count) { index in
        guard case let .won(ticket) = try await store.claim(click("new", index), lease: .seconds(12)) else { fatalError("not won") }
        try await store.publish(outcome, of: click("new", index), ticket: ticket)
    })
    // What a caller of a new link waits for: the claim alone (the manager publishes after answering its callers).
    var tickets: [(ClickIdentity, ClaimTicket)] = []
    report("claim alone, new click", try await measure(count) { index in
        guard case let .won(ticket) = try await store.claim(click("alone", index), lease: .seconds(12)) else { fatalError("not won") }
        tickets.append((click("alone", index), ticket))
    })
    for (click, ticket) in tickets { try await store.publish(outcome, of: click, ticket: ticket) }
    report("claim, click settled by another", try await measure(count) { index in
        guard case .settled = try await store.claim(click("new", index % 100), lease: .seconds(12)) else { fatalError("not settled") }
    })
}

let stub = try ResponseHandlerStub()
stub.setResponder { _ in .json(#"{"webLinkUrl":"https://www.example.com/","mobileDeepLinkUrl":"example-app://home"}"#) }
func manager(_ store: PostgresClaimStore?) -> LinkManager {
    var configuration = LinkManager.Configuration()
    configuration.policy.allowsLocalHosts = true
    configuration.policy.allowsHTTP = true
    configuration.claimStore = store
    return LinkManager(configuration: configuration)
}
let local = manager(nil)
let shared = manager(store)
let resolutions = max(200, count / 4)
if sections.contains("latency") {
    for (name, manager) in [("resolve, in-process claims", local), ("resolve, PostgreSQL claims", shared)] {
        _ = try await measure(100) { index in _ = try await manager.resolve(stub.url("/pub/acc?_ri_=\(run)-\(name.count)-warm-\(index)")) }
        report(name, try await measure(resolutions) { index in
            _ = try await manager.resolve(stub.url("/pub/acc?_ri_=\(run)-\(name.count)-\(index)"))
        })
    }
}

if sections.contains("throughput") {
    // One replica's throughput: `count` distinct links (each one upstream request), `width` resolutions in flight.
    let width = 32
    func throughput(_ name: String, _ manager: LinkManager) async throws {
        let next = Counter()
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<width {
                group.addTask {
                    while true {
                        let index = next.take()
                        guard index < count else { return }
                        let link = try await manager.resolve(stub.url("/pub/acc?_ri_=\(run)-tp-\(name)-\(index)")).resolvedLink
                        precondition(link?.error == nil, "\(String(describing: link?.error))")
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = Double((ContinuousClock.now - started).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - started).components.seconds)
        say("throughput, \(name.padding(toLength: 31, withPad: " ", startingAt: 0)) n=\(count) in flight=\(width)  "
            + String(format: "%7.0f links/s (%.2f s)", Double(count) / seconds, seconds))
    }
    for round in 0..<2 {
        try await throughput("in-process claims \(round)", local)
        try await throughput("PostgreSQL claims \(round)", shared)
    }
}

if sections.contains("growth") {
    try await Growth(url: url, clicks: growthClicks).measure()
}

if sections.contains("joiners") {
    try await JoinerLatency(url: url, table: table, run: String(run), samples: max(100, count / 15)).measure()
}
stub.shutdown()
running.cancel()
storeRunning.cancel()
