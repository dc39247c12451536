import Foundation
import PostgresNIO
import Testing
import UniversalLinkKit
import UniversalLinkKitPostgres
import UniversalLinkKitTesting

/// The claims database stopped in the middle of a burst and started again, on a cluster of the test's own.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, PostgresTestDatabase.skipReason), .timeLimit(.minutes(2)))
struct PostgresOutageTests {
    static func manager(_ store: PostgresClaimStore, failure: ClaimStoreFailurePolicy, timeout: Duration) -> LinkManager {
        var configuration = LinkManager.Configuration()
        configuration.policy.allowsLocalHosts = true
        configuration.policy.allowsHTTP = true
        configuration.timeout = timeout
        configuration.claimStore = store
        configuration.claimStoreFailure = failure
        return LinkManager(configuration: configuration)
    }

    @Test func noRequestWaitsPastItsDeadlineWhileTheDatabaseIsDownAndClaimsWorkAgainOnceItIsBack() async throws {
        let cluster = try await PrivatePostgresCluster()
        defer { cluster.stop() }
        let keys = (0..<40).map { "burst-\($0)" } + ["while-down", "after-restart"]
        let stub = try ResponseHandlerStub(links: Dictionary(uniqueKeysWithValues: keys.map {
            ("/pub/acc?_ri_=\($0)", ResponseHandlerStub.Link(webLinkUrl: "https://www.example.com/\($0)", mobileDeepLinkUrl: "example-app://\($0)"))
        }))
        defer { stub.shutdown() }
        stub.setResponder { _ in .delay(0.2) }
        let store = try PostgresClaimStore(
            url: PostgresURL(cluster.url),
            configuration: .init(secret: PostgresTestDatabase.secret, operationTimeout: .milliseconds(300), connectTimeout: .seconds(1)))
        let running = Task { try await store.run() }
        defer { running.cancel() }
        try await store.migrate()
        let timeout = Duration.seconds(2)
        let local = Self.manager(store, failure: .resolveLocally, timeout: timeout)
        let strict = Self.manager(store, failure: .reject, timeout: timeout)

        // A burst of distinct links, the database stopped while it runs.
        let burst = Task {
            try await withThrowingTaskGroup(of: (Duration, ResolvedLink?).self) { group in
                for index in 0..<40 {
                    group.addTask {
                        let started = ContinuousClock.now
                        let link = try await local.resolve(stub.url("/pub/acc?_ri_=burst-\(index)")).resolvedLink
                        return (ContinuousClock.now - started, link)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(await stub.waitForRequests(1))
        try await cluster.pgCtl("stop", "-m", "fast", "-w")
        let answers = try await burst.value

        // `local`: every caller answered by its deadline, with the destination, though claims failed.
        #expect(answers.count == 40)
        #expect(answers.allSatisfy { $0.0 < timeout + .milliseconds(500) }, "\(answers.map(\.0).max()!)")
        #expect(answers.allSatisfy { $0.1?.error == nil }, "\(answers.compactMap { $0.1?.error }.prefix(2))")
        // `reject`: refused promptly with claimStoreUnavailable while the database is down.
        let started = ContinuousClock.now
        let refused = try await strict.resolve(stub.url("/pub/acc?_ri_=while-down")).resolvedLink
        #expect(refused?.error?.code == .claimStoreUnavailable)
        #expect(ContinuousClock.now - started < timeout)
        #expect(stub.requestCount(for: "/pub/acc?_ri_=while-down") == 0)

        // Back up: the same store claims again, without a restart.
        try await cluster.pgCtl("start", "-w")
        let click = ClickIdentity(stub.url("/pub/acc?_ri_=after"))
        var claim: SharedClaim?
        #expect(
            await PostgresTestDatabase.eventually(within: .seconds(30)) {
                claim = try? await store.claim(click, lease: .seconds(10))
                return claim != nil
            })
        guard case .won? = claim else {
            Issue.record("no claim won after the restart: \(String(describing: claim))")
            return
        }
        let resolved = try await strict.resolve(stub.url("/pub/acc?_ri_=after-restart")).resolvedLink
        #expect(resolved?.error == nil)
        // The manager publishes after answering its callers, on a task of its own: until then the row is held (a
        // claim of a held row changes nothing), so wait for the outcome rather than race the publish (CI lost it once).
        let afterRestart = ClickIdentity(stub.url("/pub/acc?_ri_=after-restart"))
        var settled: SharedClaim?
        _ = await PostgresTestDatabase.eventually(within: .seconds(30)) {
            settled = try? await store.claim(afterRestart, lease: .seconds(10))
            if case .settled? = settled { return true }
            return false
        }
        let link = try #require(resolved)
        #expect(settled == .settled(SharedOutcome(deepLinkURL: link.deepLinkURL, webLinkURL: link.webLinkURL)))
    }
}
