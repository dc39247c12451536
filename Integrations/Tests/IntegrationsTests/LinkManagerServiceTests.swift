import Foundation
import UniversalLinkKitHummingbird
import Logging
import ServiceLifecycle
import Testing
import UniversalLinkKit
import UniversalLinkKitTesting

struct LinkManagerServiceTests {
    @Test func aGracefulShutdownOfTheGroupFinishesTheLinkInFlightAndRefusesNewOnes() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.enqueue([.delay(0.5)], for: "/pub/acc?_ri_=deep")
        var configuration = LinkManager.Configuration()
        configuration.policy.allowsLocalHosts = true
        configuration.policy.allowsHTTP = true
        let manager = LinkManager(configuration: configuration)
        let group = ServiceGroup(
            services: [LinkManagerService(manager: manager, gracePeriod: .seconds(5))],
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let running = Task { try await group.run() }

        let inFlight = Task { try await manager.resolve(stub.url("/pub/acc?_ri_=deep")) }
        #expect(await stub.waitForRequests(1))
        await group.triggerGracefulShutdown()
        try await running.value

        // The group returned only after the manager's shutdown, which waited for the link in flight.
        #expect(!manager.isAcceptingLinks)
        let outcome = try await inFlight.value
        #expect(outcome.resolvedLink?.deepLinkURL?.absoluteString == "example-app://products/1")
        #expect(outcome.resolvedLink?.error == nil)
        await #expect {
            try await manager.resolve(stub.url("/pub/acc?_ri_=web"))
        } throws: { error in
            (error as? LinkError)?.code == .shuttingDown
        }
        #expect(stub.requestCount(for: "/pub/acc?_ri_=web") == 0)
    }
}
