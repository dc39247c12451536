import Dispatch
import Foundation
import Synchronization
import _LinkKitLocking
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// Resolutions over real TLS on loopback: the Response Handler stub behind a TLS front with certificates made for
/// the test, through a `LinkManager` and `CurlTransport`, as an app backend resolves links.
struct TLSTransportTests {
    static let product = ResponseHandlerStub.Link(
        webLinkUrl: "https://www.example.com/products/1234", mobileDeepLinkUrl: "example-app://products/1234")

    /// A stub serving `/pub/acc` behind a TLS front presenting `spec`.
    final class Server: Sendable {
        let pki: TestPKI
        let stub: ResponseHandlerStub
        let front: TLSFront

        init(
            _ spec: CertificateSpec = .clean, chainOfAtLeast paddedBytes: Int? = nil,
            _ configure: (inout TLSFront.Configuration) -> Void = { _ in }
        ) throws {
            pki = try TestPKI()
            stub = try ResponseHandlerStub(links: ["/pub/acc": TLSTransportTests.product])
            var configuration = TLSFront.Configuration(certificate: try pki.issue(spec))
            if let paddedBytes {
                configuration.chainFile = try pki.paddedChain(of: configuration.certificate, toAtLeast: paddedBytes)
            }
            configure(&configuration)
            front = try TLSFront(upstream: stub, configuration: configuration)
        }

        deinit {
            front.shutdown()
            stub.shutdown()
        }

        /// A transport trusting the test root (or the system's roots).
        func transport(trustsTestRoot: Bool = true, perHost: Int = 16, http2: Bool = true) throws -> CurlTransport {
            var configuration = CurlTransport.Configuration(
                maximumConcurrentRequestsPerHost: perHost, caFile: trustsTestRoot ? pki.rootFile : nil)
            configuration.usesHTTP2 = http2
            return try #require(CurlTransport.make(configuration: configuration))
        }

        func link(_ index: Int = 1) -> URL { front.url("/pub/acc?_ri_=\(index)") }
    }

    /// A resolver on `transport` whose deadline only stops a test that went wrong, unless `timeout` says otherwise.
    static func resolver(_ transport: any LinkTransport, timeout: Duration = .seconds(300), events: Collector<LinkEvent>? = nil)
        -> TestResolver
    {
        var configuration = LinkManager.Configuration.Resolution(timeout: timeout, retryDelay: .milliseconds(20))
        configuration.policy = ResolutionPolicy(allowsLocalHosts: true)
        return TestResolver(configuration: configuration, transport: transport)
    }

    static func failure(_ resolver: TestResolver, _ url: URL) async -> LinkError? {
        do throws(LinkError) {
            _ = try await resolver.resolve(url)
            return nil
        } catch {
            return error
        }
    }

    @Test func aPrivateRootInTheCAFileIsTrustedInsteadOfTheSystems() async throws {
        let server = try Server()
        let transport = try server.transport()
        defer { transport.shutdown() }
        let link = try await Self.resolver(transport).resolve(server.link())
        #expect(link.deepLinkURL?.absoluteString == Self.product.mobileDeepLinkUrl)
        #expect(server.stub.requestCount(for: "/pub/acc") == 1)
        #expect(server.front.handshakeCount == 1)
    }

    @Test func theSystemsRootsRefuseAPrivateChainAsTLSWithoutARequestOrARetry() async throws {
        let server = try Server()
        let transport = try server.transport(trustsTestRoot: false)
        defer { transport.shutdown() }
        let error = try #require(await Self.failure(Self.resolver(transport), server.link()))
        #expect(error.code == .tls, "\(error)")
        #expect(error.message.contains("the chain ends in ULK Test Root CA, which is not trusted"), "\(error.message)")
        #expect(!error.message.contains("retry later"))
        #expect(server.stub.requests.count == 0)
        // The refused handshake, and the one that read the certificate to word the reason; no retry.
        #expect(server.front.connectionCount == 2)
    }

    /// Each certificate problem is `tls`, worded as a person reads it, with no request and no retry.
    @Test(arguments: [
        (CertificateSpec.selfSigned, "is self-signed"),
        (.forOtherNames(["other.example.net"]), "issued for other.example.net, not 127.0.0.1"),
        (.notYetValid, "is not valid until 20"),
    ])
    func aBadCertificateIsATLSErrorThatNamesItsReason(_ spec: CertificateSpec, _ words: String) async throws {
        let server = try Server(spec)
        let transport = try server.transport()
        defer { transport.shutdown() }
        let error = try #require(await Self.failure(Self.resolver(transport), server.link()))
        #expect(error.code == .tls, "\(error)")
        #expect(error.message.contains(words), "\(error.message)")
        #expect(server.stub.requests.count == 0)
        #expect(server.front.connectionCount <= 2)
    }

    @Test func anExpiredCertificateNamesTheDayItExpired() async throws {
        let server = try Server(.expired)
        let transport = try server.transport()
        defer { transport.shutdown() }
        let error = try #require(await Self.failure(Self.resolver(transport), server.link()))
        let day = server.front.configuration.certificate.notAfter
            .formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).year().month().day())
        #expect(error.code == .tls)
        #expect(error.message.contains("expired on \(day)"), "\(error.message)")
        #expect(server.stub.requests.count == 0)
    }

    @Test func aChainSentWithoutItsIntermediateNamesTheIssuerThatWasNotSent() async throws {
        let server = try Server { $0.sendsIntermediate = false }
        let transport = try server.transport()
        defer { transport.shutdown() }
        let error = try #require(await Self.failure(Self.resolver(transport), server.link()))
        #expect(error.code == .tls)
        #expect(
            error.message.contains("issued by ULK Test Intermediate CA, which is not trusted and was not sent"),
            "\(error.message)")
    }

    @Test func aServerOfferingOnlyTLS10And11IsRefusedAsTLS() async throws {
        let server = try Server { $0.onlyLegacyVersions() }
        let transport = try server.transport()
        defer { transport.shutdown() }
        let error = try #require(await Self.failure(Self.resolver(transport), server.link()))
        #expect(error.code == .tls, "\(error)")
        #expect(error.message.contains("the server offers only TLS 1.0/1.1"), "\(error.message)")
        #expect(server.stub.requests.count == 0)
        #expect(server.front.connectionCount == 1)
    }

    @Test func aRefusedConnectionIsANetworkErrorWithItsOneRetry() async throws {
        // A port that was just free: nothing listens there.
        let port = try {
            let stub = try ResponseHandlerStub()
            defer { stub.shutdown() }
            return stub.port
        }()
        let events = Collector<LinkEvent>()
        var configuration = LinkManager.Configuration.Resolution(timeout: .seconds(300), retryDelay: .milliseconds(20))
        configuration.policy = ResolutionPolicy(allowsLocalHosts: true)
        let transport = try #require(CurlTransport.make())
        defer { transport.shutdown() }
        let manager = LinkManager(
            configuration: .init(resolution: configuration, eventHandler: LinkEventHandler { events.append($0) }),
            transport: transport, notificationCenter: NotificationCenter())
        let outcome = try await manager.resolve(try #require(URL(string: "https://127.0.0.1:\(port)/pub/acc?_ri_=1")))
        #expect(outcome.resolvedLink?.error?.code == .network)
        #expect(events.all.filter { $0.kind == .requestSent }.count == 2)
        await manager.shutdown()
    }

    @Test func aHandshakeThatNeverEndsFailsAtTheDeadline() async throws {
        let server = try Server { $0.behavior = .silent }
        let transport = try server.transport()
        defer { transport.shutdown() }
        let error = try #require(await Self.failure(Self.resolver(transport, timeout: .milliseconds(500)), server.link()))
        #expect(error.code == .timeout, "\(error)")
        #expect(server.front.connectionCount == 1)
    }

    /// A server that hangs up during the handshake cannot be told from one that reset the connection before any
    /// TLS data: nothing was sent, so the one retry is made, and two connections is the most it sees.
    @Test func aServerClosingAfterItsFirstHandshakeMessageIsANetworkErrorOverTwoConnections() async throws {
        let server = try Server { $0.behavior = .closeAfterFirstMessage }
        let transport = try server.transport()
        defer { transport.shutdown() }
        let error = try #require(await Self.failure(Self.resolver(transport), server.link()))
        #expect(error.code == .network, "\(error)")
        #expect(server.front.connectionCount == 2)
        #expect(server.stub.requests.count == 0)
    }

    @Test func anAnswerCutByAnAlertInItsBodyIsANetworkErrorNeverRequestedAgain() async throws {
        let server = try Server { $0.behavior = .closeMidBody(afterBytes: 120) }
        let transport = try server.transport()
        defer { transport.shutdown() }
        let error = try #require(await Self.failure(Self.resolver(transport), server.link()))
        #expect(error.code == .network, "\(error)")
        #expect(server.stub.requests.count == 1)
    }

    @Test func aMegabyteCertificateChainIsRefusedAsTLS() async throws {
        let server = try Server(chainOfAtLeast: 1 << 20)
        let transport = try server.transport()
        defer { transport.shutdown() }
        let error = try #require(await Self.failure(Self.resolver(transport), server.link()))
        #expect(error.code == .tls, "\(error)")
        #expect(server.stub.requests.count == 0)
        #expect(server.front.connectionCount <= 2)
    }

    @Test func aBurstOfDistinctLinksToOneHostOpensAtMostTheConnectionLimit() async throws {
        let server = try Server()
        let transport = try server.transport(http2: false)
        defer { transport.shutdown() }
        let resolver = Self.resolver(transport)
        let resolved = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<100 {
                group.addTask { (try? await resolver.resolve(server.link(index))) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(resolved == 100)
        #expect(server.stub.requests.count == 100)
        #expect(server.front.connectionCount <= 16, "\(server.front.connectionCount) connections")
    }

    @Test func aNewConnectionResumesTheTLSSessionOfAnEarlierOne() async throws {
        let server = try Server()
        let transport = try server.transport()
        defer { transport.shutdown() }
        _ = try await transport.send(
            TransportRequest(url: server.link(1), allowsLocalAddresses: true, deadline: .now + .seconds(300)), maxBodyBytes: 4096)
        // A fresh connection, as the resolver's retry asks for.
        _ = try await transport.send(
            TransportRequest(
                url: server.link(2), allowsLocalAddresses: true, allowsReusedConnection: false, deadline: .now + .seconds(300)),
            maxBodyBytes: 4096)
        #expect(server.front.handshakeCount == 2)
        #expect(server.front.resumedHandshakeCount == 1)
    }

    @Test func aBurstOverHTTP2IsMultiplexedOnOneConnection() async throws {
        let server = try Server { $0.offersHTTP2 = true }
        let transport = try server.transport()
        defer { transport.shutdown() }
        let resolver = Self.resolver(transport)
        let resolved = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<100 {
                group.addTask { (try? await resolver.resolve(server.link(index))) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(resolved == 100)
        #expect(server.stub.requests.count == 100)
        #expect(server.front.http2StreamCount == 100)
        #expect(server.front.connectionCount == 1, "\(server.front.connectionCount) connections")
        #expect(server.front.handshakeCount == 1)
    }

    /// Over HTTP/2 the per-host limit bounds the streams in flight, not only the connections.
    @Test func thePerHostLimitBoundsTheStreamsOfOneHTTP2Connection() async throws {
        let server = try Server { $0.offersHTTP2 = true }
        let held = PeakCounter()
        let release = DispatchSemaphore(value: 0)
        server.stub.setResponder { _ in
            held.increment()
            release.wait()
            held.decrement()
            return nil
        }
        let transport = try server.transport(perHost: 4)
        defer { transport.shutdown() }
        let resolver = Self.resolver(transport)
        let burst = Task {
            await withTaskGroup(of: Bool.self) { group in
                for index in 0..<40 {
                    group.addTask { (try? await resolver.resolve(server.link(index))) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }
        #expect(await server.stub.waitForRequests(4, timeout: .seconds(300)))
        for _ in 0..<40 { release.signal() }
        #expect(await burst.value == 40)
        #expect(held.peak <= 4, "\(held.peak) requests held at once")
        #expect(server.front.http2ConnectionCount == 1)
    }

    /// Over HTTP/2 the body cap and the deadline hold as over HTTP/1.1.
    @Test func overHTTP2ABodyOverTheCapIsTooLargeAndASilentAnswerEndsAtTheDeadline() async throws {
        let server = try Server { $0.offersHTTP2 = true }
        server.stub.enqueue([.hugeBody(bytes: 4 << 20)], for: "/pub/acc?_ri_=1")
        server.stub.enqueue([.noResponse], for: "/pub/acc?_ri_=2")
        let transport = try server.transport()
        defer { transport.shutdown() }
        let tooLarge = try #require(await Self.failure(Self.resolver(transport), server.link(1)))
        #expect(tooLarge.code == .responseTooLarge, "\(tooLarge)")
        let silent = try #require(await Self.failure(Self.resolver(transport, timeout: .milliseconds(500)), server.link(2)))
        #expect(silent.code == .timeout, "\(silent)")
        #expect(server.front.http2ConnectionCount == 1)
    }

    /// The request count of the pre-request callback holds over HTTP/2: a 503 is retried once, and no link
    /// reaches the server a third time.
    @Test func overHTTP2ALinkAnswered503ReachesTheServerTwice() async throws {
        let server = try Server { $0.offersHTTP2 = true }
        server.stub.setDefaultBehavior(.status(503))
        let transport = try server.transport()
        defer { transport.shutdown() }
        let resolver = Self.resolver(transport)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask { _ = await Self.failure(resolver, server.link(index)) }
            }
        }
        for index in 0..<20 {
            #expect(server.stub.requestCount(for: "/pub/acc?_ri_=\(index)") == 2)
        }
        #expect(server.front.http2ConnectionCount >= 1)
    }
}

/// How many are in at once, and the most there ever were.
private final class PeakCounter: Sendable {
    private let state = Mutex((now: 0, peak: 0))

    func increment() { state.withTrackedLock { $0.now += 1; $0.peak = max($0.peak, $0.now) } }
    func decrement() { state.withTrackedLock { $0.now -= 1 } }
    var peak: Int { state.withTrackedLock { $0.peak } }
}
