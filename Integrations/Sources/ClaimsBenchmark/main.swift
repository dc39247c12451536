// `claims-benchmark`: the cost of sharing click claims through PostgreSQL, next to claims kept in the process
// (issue 17). Needs a database: run it under the throwaway cluster,
//
//     Integrations/Scripts/with-postgres swift run -c release --package-path Integrations claims-benchmark [N] [TABLE]
//
// It prints p50 / p90 / p99 of: a claim + publish of a new click (what a replica's winner adds), a claim of a click
// settled by another (what a duplicate costs), and a LinkManager resolution of a new link against the loopback
// Response Handler stub with and without the store. Figures from a shared or busy machine mean little.
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

func report(_ name: String, _ samples: [Duration]) {
    let sorted = samples.sorted()
    func percentile(_ p: Double) -> String {
        let value = sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        return String(format: "%8.1f µs", Double(value.components.attoseconds) / 1e12 + Double(value.components.seconds) * 1e6)
    }
    print("\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) n=\(sorted.count)  p50 \(percentile(0.5))  p90 \(percentile(0.9))  p99 \(percentile(0.99))")
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

var clientConfiguration = try PostgresURL(url).clientConfiguration
clientConfiguration.options.minimumConnections = 2
let client = PostgresClient(configuration: clientConfiguration)
let running = Task { await client.run() }
let store = try PostgresClaimStore(
    client: client,
    configuration: .init(
        secret: Array("claims-benchmark-secret-0123456789".utf8), duplicateWindow: .seconds(600), tableName: table))
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
// The floor: one round trip of postgres-nio's client to the database, no table.
report("SELECT 1 through the client (floor)", try await measure(count) { _ in
    _ = try await client.query("SELECT 1").collect()
})
report("claim + publish, new click", try await measure(count) { index in
    guard case let .won(ticket) = try await store.claim(click("new", index), lease: .seconds(12)) else { fatalError("not won") }
    try await store.publish(outcome, of: click("new", index), ticket: ticket)
})
report("claim, click settled by another", try await measure(count) { index in
    guard case .settled = try await store.claim(click("new", index % 100), lease: .seconds(12)) else { fatalError("not settled") }
})

let stub = try ResponseHandlerStub()
stub.setResponder { _ in .json(ResponseHandlerStub.Link(webLinkUrl: "https://www.example.com/", mobileDeepLinkUrl: "example-app://home").json) }
func manager(_ store: PostgresClaimStore?) -> LinkManager {
    var configuration = LinkManager.Configuration()
    configuration.resolution.policy.allowsLocalHosts = true
    configuration.resolution.policy.allowsHTTP = true
    configuration.claimStore = store
    return LinkManager(configuration: configuration)
}
let local = manager(nil)
let shared = manager(store)
let resolutions = max(200, count / 4)
for (name, manager) in [("resolve, in-process claims", local), ("resolve, PostgreSQL claims", shared)] {
    _ = try await measure(100) { index in _ = try await manager.resolve(stub.url("/pub/acc?_ri_=\(run)-\(name.count)-warm-\(index)")) }
    report(name, try await measure(resolutions) { index in
        _ = try await manager.resolve(stub.url("/pub/acc?_ri_=\(run)-\(name.count)-\(index)"))
    })
}
stub.shutdown()
running.cancel()
