import Foundation
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// How long a request waited for a connection slot is measured by `CurlTransport` and reported on the `answered`
/// event, so an operator can see the per-host connection limit become the bottleneck.
struct ConnectionWaitTests {
    @Test func aRequestQueuedBehindTheOnlySlotReportsItsWait() async throws {
        let stub = try ResponseHandlerStub()
        defer { stub.shutdown() }
        // The first request holds the host's only connection until the test opens the gate, which it does once the
        // second request is known to be waiting.
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        stub.setResponder { request in
            if request.query == "_ri_=first" { gate.wait() }
            return .json(#"{"webLinkUrl":"https://www.example.com/p"}"#)
        }
        let transport = try #require(CurlTransport.make(configuration: .init(maximumConcurrentRequestsPerHost: 1)))
        defer { transport.shutdown() }
        let clock = ContinuousClock()
        let started = clock.now
        let first = Task {
            try await transport.send(
                TransportRequest(url: stub.url("/pub/acc?_ri_=first"), allowsLocalAddresses: true), maxBodyBytes: 4096)
        }
        #expect(await stub.waitForRequests(1, timeout: .seconds(300)))
        let reached = clock.now
        // Started on this thread: `send` checks the literal address and queues the request before its first
        // suspension, so the second caller is known to be waiting once this returns, with nothing to poll.
        let second = Task.immediate {
            try await transport.send(
                TransportRequest(url: stub.url("/pub/acc?_ri_=second"), allowsLocalAddresses: true), maxBodyBytes: 4096)
        }
        let queued = clock.now
        // Both callers handed in: the second is queued behind the held connection.
        #expect(transport.pendingCount == 2)
        // The second waits at least from here to the first's answer, which comes after a round trip to another host.
        let other = try ResponseHandlerStub()
        defer { other.shutdown() }
        _ = try await transport.send(
            TransportRequest(url: other.url("/pub/acc?_ri_=other"), allowsLocalAddresses: true), maxBodyBytes: 4096)
        let held = clock.now - queued
        gate.signal()
        let firstWait = try #require(try await first.value.connectionWait)
        let secondWait = try #require(try await second.value.connectionWait)
        // The first waited for no one: its wait ended before its request reached the server. The second waited at
        // least from being queued until the first's answer, which came after a round trip to another host.
        #expect(firstWait <= reached - started, "\(firstWait) vs \(reached - started)")
        #expect(secondWait >= held, "\(secondWait) vs \(held)")
        #expect(stub.requests.count == 2)
    }

    @Test func theAnsweredEventCarriesTheWait() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": .init(webLinkUrl: "https://www.example.com/p", mobileDeepLinkUrl: nil)])
        defer { stub.shutdown() }
        let events = Collector<LinkEvent>()
        var configuration = LinkManager.Configuration()
        configuration.policy = ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true)
        configuration.eventHandler = LinkEventHandler { events.append($0) }
        let manager = LinkManager(configuration: configuration)
        _ = try await manager.resolve(stub.url("/pub/acc?_ri_=event"))
        let answered = try #require(events.all.first { $0.kind == .answered })
        let wait = try #require(answered.connectionWait)
        #expect(wait <= (answered.duration ?? .zero) + .seconds(1))
        #expect(answered.description.contains("connectionWait="))
        await manager.shutdown()
    }
}
