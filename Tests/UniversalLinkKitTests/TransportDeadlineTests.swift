import Foundation
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// The deadline, through each real transport against the loopback stub: the resolver's race against its clock, or,
/// for `CurlTransport` on the system clock, the transport's own (the resolver then runs it on the caller's task).
struct TransportDeadlineTests {
    static let product = ResponseHandlerStub.Link(
        webLinkUrl: "https://www.example.com/products/1234", mobileDeepLinkUrl: "example-app://products/1234")

    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case curl, urlSession
        var testDescription: String { rawValue }
    }

    /// A transport of the kind, with a way to count the requests it still waits on.
    struct Subject {
        let transport: any LinkTransport
        let pending: @Sendable () -> Int

        init(_ kind: Kind) throws {
            switch kind {
            case .curl:
                let curl = try #require(CurlTransport.make())
                transport = curl
                pending = { curl.pendingCount }
            case .urlSession:
                let session = URLSessionTransport()
                transport = session
                pending = { session.pendingCount }
            }
        }
    }

    func resolver(_ subject: Subject, clock: LinkClock = .continuous, timeout: Duration = .seconds(60)) -> TestResolver {
        var configuration = LinkManager.Configuration.Resolution(timeout: timeout, retryDelay: .milliseconds(20))
        configuration.policy = ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true)
        return TestResolver(configuration: configuration, transport: subject.transport, clock: clock)
    }

    @Test(arguments: Kind.allCases)
    func aSuccessfulResolutionLeavesNoRequestOrTimerBehind(_ kind: Kind) async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        let clock = ManualClock()
        let subject = try Subject(kind)
        let link = try await resolver(subject, clock: clock.linkClock).resolve(stub.url("/pub/acc?_ri_=ok"))
        #expect(link.deepLinkURL == URL("example-app://products/1234"))
        #expect(subject.pending() == 0)
        // The deadline is armed on the injected clock's scheduler: it must be disarmed, not left to fire; at most
        // the scheduler's one sleeper stays, for the deadlines to come.
        #expect(clock.pendingDeadlines == 0)
        #expect(clock.sleeperCount <= 1)
    }

    @Test(arguments: Kind.allCases)
    func anInjectedClockDrivesTheDeadlineWhenTheServerNeverAnswers(_ kind: Kind) async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        stub.setDefaultBehavior(.noResponse)
        // An injected clock an hour behind the system's: its deadline, read on the system clock, passed long ago.
        // The request must still be sent: the transport is given the time left on the resolver's clock.
        let clock = ManualClock(start: .now - .seconds(3600))
        let subject = try Subject(kind)
        let resolver = resolver(subject, clock: clock.linkClock, timeout: .seconds(10))
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
        #expect(await stub.waitForRequests(1, timeout: .seconds(300)))
        #expect(await clock.wait { $0.sleeperCount == 1 })
        #expect(finished.total == 0)
        clock.advance(by: .seconds(10))
        let error = await task.value
        #expect(error?.code == .timeout)
        #expect(subject.pending() == 0)
        #expect(stub.requests.count == 1)
    }

    /// How a server holds its answer back.
    enum Holding: String, CaseIterable, CustomTestStringConvertible {
        /// Never a byte.
        case silence
        /// A byte at a time, forever: the deadline holds over the body too (for `CurlTransport` on the system clock,
        /// by libcurl's timeout, which covers the whole transfer).
        case trickle

        var behavior: Behavior {
            switch self {
            case .silence: .noResponse
            case .trickle: .trickle(bytesPerChunk: 1, interval: 0.05, then: .endlessBody)
            }
        }

        var testDescription: String { rawValue }
    }

    @Test(arguments: Kind.allCases, Holding.allCases)
    func theDeadlineHoldsOnTheSystemClockWhenTheServerHoldsItsAnswer(_ kind: Kind, _ holding: Holding) async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        stub.setDefaultBehavior(holding.behavior)
        let subject = try Subject(kind)
        let resolver = resolver(subject, timeout: .milliseconds(500))
        // Measured inside the resolving task, at the event, so a busy pool delays the test, not the measurement.
        let (error, elapsed) = await Task(priority: .userInitiated) { () -> (LinkError?, Duration) in
            let start = ContinuousClock.now
            do throws(LinkError) {
                _ = try await resolver.resolve(stub.url("/pub/acc?_ri_=\(holding)"))
                return (nil, .now - start)
            } catch {
                return (error, .now - start)
            }
        }.value
        #expect(error?.code == .timeout)
        #expect(elapsed >= .milliseconds(500))
        #expect(elapsed < .seconds(20))
        #expect(subject.pending() == 0)
    }

    @Test(arguments: Kind.allCases)
    func cancellingARequestReturnsAtOnceAndDropsIt(_ kind: Kind) async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        stub.setDefaultBehavior(.noResponse)
        let subject = try Subject(kind)
        defer { subject.transport.shutdown() }
        let request = TransportRequest(url: stub.url("/pub/acc?_ri_=cancel"), allowsLocalAddresses: true)
        let task = Task { () -> (Bool, ContinuousClock.Instant) in
            do {
                _ = try await subject.transport.send(request, maxBodyBytes: 4096)
                return (false, .now)
            } catch {
                return (error is CancellationError, .now)
            }
        }
        #expect(await stub.waitForRequests(1, timeout: .seconds(300)))
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let (cancelled, returnedAt) = await task.value
        #expect(cancelled)
        #expect(returnedAt - cancelledAt < .seconds(20))
        #expect(subject.pending() == 0)
    }

    @Test func aCallerWhoStopsWaitingGetsCancelledAndTheLinkIsStillNotified() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        // The answer waits until the caller has given up.
        let gate = DispatchSemaphore(value: 0)
        stub.setResponder { _ in
            gate.wait()
            return nil
        }
        var configuration = LinkManager.Configuration()
        configuration.policy = ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true)
        // A deadline no loaded machine reaches: the link must be answered, not timed out, after the caller leaves.
        configuration.timeout = .seconds(600)
        let center = NotificationCenter()
        let recorder = NotificationRecorder(center: center)
        let manager = LinkManager(configuration: configuration, notificationCenter: center)
        let url = stub.url("/pub/acc?_ri_=walks-away")
        let task = Task { () -> LinkError? in
            do throws(LinkError) {
                _ = try await manager.resolve(url)
                return nil
            } catch {
                return error
            }
        }
        #expect(await stub.waitForRequests(1, timeout: .seconds(300)))
        task.cancel()
        #expect(await task.value?.code == .cancelled)
        gate.signal()
        #expect(await recorder.wait(for: url, timeout: .seconds(300))?.deepLinkURL == URL(string: "example-app://products/1234"))
        await manager.shutdown()
    }

    @Test func theEarlierOfTheCallersDeadlineAndTheTimeoutApplies() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        let subject = try Subject(.curl)
        let error = await #expect(throws: LinkError.self) {
            try await resolver(subject).resolve(stub.url("/pub/acc?_ri_=late"), deadline: .now - .seconds(1))
        }
        #expect(error?.code == .timeout)
        #expect(stub.requests.count == 0)
    }

    /// A name lookup that never ends (one that ignores cancellation, as `getaddrinfo` does), on a thread of its own
    /// until the test ends.
    final class StuckLookup: Sendable {
        private let release = DispatchSemaphore(value: 0)

        var resolver: NameResolver {
            NameResolver { [release] _ in
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    Thread { release.wait(); continuation.resume() }.start()
                }
                return ["127.0.0.1"]
            }
        }

        func end() { release.signal() }
    }

    /// `CurlTransport` keeps a request's deadline by itself, without being cancelled: the resolver runs it on the
    /// caller's task because of that.
    @Test(.timeLimit(.minutes(1))) func curlEndsARequestAtItsDeadlineWithoutBeingCancelled() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        stub.setDefaultBehavior(.noResponse)
        let curl = try #require(CurlTransport.make())
        let request = TransportRequest(
            url: stub.url("/pub/acc?_ri_=silent"), headerFields: ["Accept": "application/json"],
            allowsLocalAddresses: true, deadline: .now + .milliseconds(300))
        let start = ContinuousClock.now
        let error = await #expect(throws: TransportError.self) { try await curl.send(request, maxBodyBytes: 1024) }
        #expect(error?.kind == .timedOut)
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(stub.requests.count == 1)
        #expect(curl.pendingCount == 0)
    }

    @Test(.timeLimit(.minutes(1))) func aNameLookupThatNeverEndsEndsTheRequestUnsentAtTheDeadline() async throws {
        let lookup = StuckLookup()
        defer { lookup.end() }
        let curl = try #require(CurlTransport.make(nameResolver: lookup.resolver))
        let request = TransportRequest(
            url: URL("http://stuck.example.com/pub/acc?_ri_=dns"), headerFields: [:], allowsLocalAddresses: true,
            deadline: .now + .milliseconds(300))
        let error = await #expect(throws: TransportError.self) { try await curl.send(request, maxBodyBytes: 1024) }
        #expect(error?.kind == .timedOut)
        #expect(error?.detail.contains("not sent: stuck.example.com did not resolve by the deadline") == true)

        // Through the resolver on the system clock, the caller gets the deadline's answer.
        var configuration = LinkManager.Configuration.Resolution(timeout: .milliseconds(300))
        configuration.policy = ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true)
        let resolver = TestResolver(configuration: configuration, transport: curl)
        let resolved = await #expect(throws: LinkError.self) {
            try await resolver.resolve(URL("http://stuck.example.com/pub/acc?_ri_=dns2"))
        }
        #expect(resolved?.code == .timeout)
    }
}
