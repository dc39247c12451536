import Foundation
import Testing
import UniversalLinkKit
import UniversalLinkKitPostgres
import UniversalLinkKitTesting

/// Two `LinkManager`s, as two replicas would hold them, sharing one `PostgresClaimStore` table, against the loopback
/// Response Handler stub.
@Suite(.enabled(if: PostgresTestDatabase.isAvailable, PostgresTestDatabase.skipReason), .timeLimit(.minutes(2)))
struct SharedClaimsPostgresTests {
    static func manager(_ store: PostgresClaimStore, timeout: Duration = .seconds(5)) -> LinkManager {
        var configuration = LinkManager.Configuration()
        configuration.policy.allowsLocalHosts = true
        configuration.policy.allowsHTTP = true
        configuration.timeout = timeout
        configuration.claimStore = store
        return LinkManager(configuration: configuration)
    }

    @Test func concurrentResolvesOfOneLinkAcrossTwoManagersMakeOneRequestAndGetOneAnswer() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.enqueue([.delay(0.3)], for: "/pub/acc?_ri_=deep")
        let table = PostgresTestDatabase.uniqueTable()
        let first = Self.manager(try await PostgresTestDatabase.store(table: table))
        let second = Self.manager(try await PostgresTestDatabase.store(table: table))
        let url = stub.url("/pub/acc?_ri_=deep")
        let links = try await withThrowingTaskGroup(of: ResolvedLink?.self) { group in
            for index in 0..<40 {
                let manager = index.isMultiple(of: 2) ? first : second
                group.addTask { try await manager.resolve(url).resolvedLink }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stub.requests.count == 1)
        #expect(links.count == 40)
        #expect(Set(links.map { $0?.deepLinkURL }) == [URL(string: "example-app://products/1")])
        #expect(Set(links.map { $0?.webLinkURL }) == [URL(string: "https://www.example.com/products/1")])
        #expect(links.allSatisfy { $0?.error == nil })
    }

    @Test func aFailedResolutionIsSharedWithItsCodeAndStatus() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.setDefaultBehavior(.status(500))
        let table = PostgresTestDatabase.uniqueTable()
        let first = Self.manager(try await PostgresTestDatabase.store(table: table))
        let second = Self.manager(try await PostgresTestDatabase.store(table: table))
        let url = stub.url("/pub/acc?_ri_=deep")
        let here = try await first.resolve(url)
        let requestsAfterFirst = stub.requests.count
        let there = try await second.resolve(url)
        #expect(here.resolvedLink?.error?.code == .httpStatus)
        #expect(stub.requests.count == requestsAfterFirst)
        #expect(there.isDuplicate)
        #expect(there.resolvedLink?.error?.code == .httpStatus)
        #expect(there.resolvedLink?.error?.statusCode == here.resolvedLink?.error?.statusCode)
    }
}
