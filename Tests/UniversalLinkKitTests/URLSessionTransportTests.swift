import Foundation
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// `URLSessionTransport` enforcing the resolver's deadline itself, against the loopback stub.
struct URLSessionTransportTests {
    static let product = ResponseHandlerStub.Link(
        webLinkUrl: "https://www.example.com/products/1234", mobileDeepLinkUrl: "example-app://products/1234")

    func resolver(_ transport: URLSessionTransport, clock: LinkClock = .continuous, timeout: Duration = .seconds(60)) -> LinkResolver {
        var configuration = LinkResolver.Configuration(timeout: timeout, retryDelay: .milliseconds(20))
        configuration.policy = ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true)
        return LinkResolver(configuration: configuration, transport: transport, clock: clock)
    }

    @Test func theResolverLetsOnlyURLSessionTransportEnforceTheDeadline() throws {
        let stub = try ResponseHandlerStub()
        defer { stub.shutdown() }
        #expect(LinkResolver(transport: URLSessionTransport()).transportEnforcesDeadline)
        // Any other transport, a wrapper of URLSessionTransport included, may ignore cancellation: general path.
        #expect(!LinkResolver(transport: ClosureTransport { _, _ in .status(204) }).transportEnforcesDeadline)
        #expect(!LinkResolver(transport: StubHostTransport(hosts: ["news.example.com"], stub: stub)).transportEnforcesDeadline)
    }

    @Test func aSuccessfulResolutionLeavesNoRequestOrTimerBehind() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        let clock = ManualClock()
        let transport = URLSessionTransport()
        let link = try await resolver(transport, clock: clock.linkClock).resolve(stub.url("/pub/acc?_ri_=ok"))
        #expect(link.deepLinkURL == URL("example-app://products/1234"))
        #expect(transport.pendingCount == 0)
        // The request's deadline timer sleeps on the injected clock: it must be cancelled, not left to fire.
        #expect(await clock.wait { $0.sleeperCount == 0 && $0.cancelledSleeps == 1 })
    }

    @Test func anInjectedClockDrivesTheDeadlineWhenTheServerNeverAnswers() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        stub.setDefaultBehavior(.noResponse)
        let clock = ManualClock()
        let transport = URLSessionTransport()
        let resolver = resolver(transport, clock: clock.linkClock, timeout: .seconds(10))
        let finished = Tally()
        let task = Task { () -> LinkError? in
            defer { finished.add("done") }
            do throws(LinkError) {
                _ = try await resolver.resolve(stub.url("/pub/acc?_ri_=silent"))
                return nil
            } catch {
                return error
            }
        }
        #expect(await stub.waitForRequests(1, timeout: .seconds(30)))
        #expect(await clock.wait { $0.sleeperCount == 1 })
        // Real time passing does not end it: only the injected clock does.
        try await Task.sleep(for: .milliseconds(200))
        #expect(finished.total == 0)
        clock.advance(by: .seconds(10))
        let error = await task.value
        #expect(error?.code == .timeout)
        #expect(transport.pendingCount == 0)
        #expect(stub.requestCount == 1)
    }

    @Test func theDeadlineHoldsOnTheSystemClockWhenTheServerNeverAnswers() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        stub.setDefaultBehavior(.noResponse)
        let transport = URLSessionTransport()
        let resolver = resolver(transport, timeout: .milliseconds(500))
        // Measured inside the resolving task, at the event, so a busy pool delays the test, not the measurement.
        let (error, elapsed) = await Task(priority: .userInitiated) { () -> (LinkError?, Duration) in
            let start = ContinuousClock.now
            do throws(LinkError) {
                _ = try await resolver.resolve(stub.url("/pub/acc?_ri_=silent"))
                return (nil, .now - start)
            } catch {
                return (error, .now - start)
            }
        }.value
        #expect(error?.code == .timeout)
        #expect(elapsed >= .milliseconds(500))
        // Generous: "on time" against the 30 s session backstop.
        #expect(elapsed < .seconds(20))
        #expect(transport.pendingCount == 0)
    }

    @Test func cancellingTheCallerReturnsAtOnceWithCancelled() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        stub.setDefaultBehavior(.noResponse)
        let transport = URLSessionTransport()
        let resolver = resolver(transport, timeout: .seconds(120))
        let task = Task { () -> (LinkError?, ContinuousClock.Instant) in
            do throws(LinkError) {
                _ = try await resolver.resolve(stub.url("/pub/acc?_ri_=cancel"))
                return (nil, .now)
            } catch {
                return (error, .now)
            }
        }
        #expect(await stub.waitForRequests(1, timeout: .seconds(30)))
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let (error, returnedAt) = await task.value
        #expect(error?.code == .cancelled)
        // Generous: "at once" against the 120 s deadline.
        #expect(returnedAt - cancelledAt < .seconds(20))
        #expect(transport.pendingCount == 0)
    }

    @Test func theTransportAloneThrowsAtTheDeadlineAndAbandonsTheRequest() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        stub.setDefaultBehavior(.noResponse)
        let transport = URLSessionTransport()
        let clock = ManualClock()
        let task = Task {
            try await transport.send(
                TransportRequest(url: stub.url("/pub/acc?_ri_=t")), maxBodyBytes: 1024,
                deadline: clock.now + .seconds(5), clock: clock.linkClock)
        }
        #expect(await stub.waitForRequests(1, timeout: .seconds(30)))
        #expect(await clock.wait { $0.sleeperCount == 1 })
        clock.advance(by: .seconds(5))
        let result = await task.result
        #expect(throws: DeadlineExceeded.self) { try result.get() }
        #expect(transport.pendingCount == 0)
    }

    @Test func aDeadlineAlreadyPassedSendsNothing() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        let transport = URLSessionTransport()
        await #expect(throws: DeadlineExceeded.self) {
            try await transport.send(
                TransportRequest(url: stub.url("/pub/acc?_ri_=late")), maxBodyBytes: 1024,
                deadline: .now - .seconds(1), clock: .continuous)
        }
        #expect(stub.requestCount == 0)
    }
}
