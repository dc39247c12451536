import Foundation
import LinkDoctor
import Testing
import UniversalLinkKit
import UniversalLinkKitTesting

/// The TLS front and the test PKI, through libcurl as a client: the package's `CurlTransport` (trusting the
/// system's roots or the test root) and the doctor's libcurl client that verifies nothing.
struct TLSFrontTests {
    static let link = ResponseHandlerStub.Link(webLinkUrl: "https://www.example.com/p/1", mobileDeepLinkUrl: "app://p/1")

    /// A stub with one link, a PKI, and a front presenting `spec` configured by `configure`.
    final class Setup: Sendable {
        let pki: TestPKI
        let stub: ResponseHandlerStub
        let front: TLSFront

        init(_ spec: CertificateSpec = .clean, _ configure: (inout TLSFront.Configuration) -> Void = { _ in }) throws {
            pki = try TestPKI()
            stub = try ResponseHandlerStub(links: ["/pub/acc?_ri_=1": TLSFrontTests.link])
            var configuration = TLSFront.Configuration(certificate: try pki.issue(spec))
            configure(&configuration)
            front = try TLSFront(upstream: stub, configuration: configuration)
        }

        deinit {
            front.shutdown()
            stub.shutdown()
        }

        func request(_ path: String = "/pub/acc?_ri_=1", within: Duration = .seconds(30)) -> TransportRequest {
            TransportRequest(
                url: front.url(path), headerFields: ["Accept": "application/json"], allowsLocalAddresses: true,
                deadline: .now + within)
        }

        /// Sends through the doctor's client, trusting the test root (or nothing verified).
        func fetch(verifies: Bool = true, within: Duration = .seconds(30)) async throws -> TransportResponse {
            guard verifies else { return try await TLSFetchTransport().send(request(within: within), maxBodyBytes: 1 << 20) }
            let transport = try #require(CurlTransport.make(configuration: .init(caFile: pki.rootFile)))
            defer { transport.shutdown() }
            return try await transport.send(request(within: within), maxBodyBytes: 1 << 20)
        }

        /// Sends through `CurlTransport`, as the resolver does.
        func curl(within: Duration = .seconds(30), maxBodyBytes: Int = 1 << 20) async throws -> TransportResponse {
            let transport = try #require(CurlTransport.make())
            defer { transport.shutdown() }
            return try await transport.send(request(within: within), maxBodyBytes: maxBodyBytes)
        }
    }

    @Test func aClientTrustingTheRootGetsTheUpstreamsAnswerOverOneHandshake() async throws {
        let setup = try Setup()
        let response = try await setup.fetch()
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == Self.link.json)
        #expect(setup.stub.requestCount(for: "/pub/acc") == 1)
        #expect(setup.front.connectionCount == 1)
        #expect(setup.front.handshakeCount == 1)
    }

    @Test func anRSALeafServesToo() async throws {
        let setup = try Setup(.cleanRSA)
        #expect(try await setup.fetch().statusCode == 200)
    }

    @Test func theSystemsRootsDoNotTrustTheTestRootAndNoRequestReachesTheUpstream() async throws {
        let setup = try Setup()
        await #expect {
            _ = try await setup.curl()
        } throws: { error in
            Self.isTLSFailure(error, saying: "the chain ends in ULK Test Root CA, which is not trusted", or: "unable to get local issuer certificate")
        }
        #expect(await setup.front.wait(until: .failedHandshakes, reaches: 1) == 1)
        #expect(setup.stub.requestCount(for: "/pub/acc") == 0)
    }

    /// Each bad leaf fails verification against the test root, for the reason OpenSSL names.
    @Test(arguments: [
        (CertificateSpec.expired, "expired on", "certificate has expired"),
        (.notYetValid, "is not valid until", "certificate is not yet valid"),
        (.selfSigned, "is self-signed", "self-signed certificate"),
        (.forOtherNames(), "issued for other.example.net, not 127.0.0.1", "no alternative certificate subject name"),
    ])
    func aBadLeafIsRefusedForItsReason(_ spec: CertificateSpec, _ reason: String, _ openSSLReason: String) async throws {
        let setup = try Setup(spec)
        await #expect {
            _ = try await setup.fetch()
        } throws: { error in
            Self.isTLSFailure(error, saying: reason, or: openSSLReason)
        }
        #expect(setup.stub.requestCount(for: "/pub/acc") == 0)
    }

    @Test func aChainSentWithoutItsIntermediateDoesNotVerify() async throws {
        let setup = try Setup { $0.sendsIntermediate = false }
        await #expect {
            _ = try await setup.fetch()
        } throws: { error in
            Self.isTLSFailure(error, saying: "which is not trusted and was not sent", or: "unable to get local issuer certificate")
        }
    }

    /// Whether `error` is a TLS failure for the expected reason: in the transport's words, or in OpenSSL's, which
    /// the transport keeps when its second handshake cannot read the chain. These tests are about what the front
    /// presents; the transport's wording is `TLSTransportTests`'.
    static func isTLSFailure(_ error: any Error, saying words: String, or openSSLWords: String) -> Bool {
        guard let failure = error as? TransportError, failure.kind == .tls else { return false }
        return "\(failure)".contains(words) || "\(failure)".contains(openSSLWords)
    }

    /// Security level 0 lets the front present what a strict client refuses; a client that verifies nothing
    /// reads them.
    @Test(arguments: [CertificateSpec.rsa1024, .sha1Signed, .expired, .selfSigned])
    func theFrontPresentsWeakAndBadLeavesToAClientThatVerifiesNothing(_ spec: CertificateSpec) async throws {
        let setup = try Setup(spec)
        #expect(try await setup.fetch(verifies: false).statusCode == 200)
    }

    @Test func aFrontLimitedToTLS13StillServes() async throws {
        let setup = try Setup { $0.minimumVersion = .tls13 }
        #expect(try await setup.fetch().statusCode == 200)
    }

    @Test func aFrontLimitedToTLS10And11IsRefusedByADefaultClient() async throws {
        let setup = try Setup { $0.onlyLegacyVersions() }
        await #expect(throws: TransportError.self) { _ = try await setup.fetch() }
        #expect(try await setup.fetch(verifies: false).statusCode == 200)
    }

    @Test func aSilentFrontHoldsTheHandshakeUntilTheClientsDeadline() async throws {
        let setup = try Setup { $0.behavior = .silent }
        let started = ContinuousClock.now
        await #expect {
            _ = try await setup.curl(within: .milliseconds(300))
        } throws: { error in
            (error as? TransportError)?.kind == .timedOut
        }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(setup.front.connectionCount == 1)
        #expect(setup.front.handshakeCount == 0)
    }

    @Test func aFrontThatClosesAfterItsServerHelloFailsTheHandshake() async throws {
        let setup = try Setup { $0.behavior = .closeAfterFirstMessage }
        await #expect(throws: TransportError.self) { _ = try await setup.curl() }
        #expect(await setup.front.wait(until: .failedHandshakes, reaches: 1) == 1)
        #expect(setup.front.connectionCount == 1)
        #expect(setup.stub.requestCount(for: "/pub/acc") == 0)
    }

    @Test func aOneMebibyteChainIsRefusedByTheClient() async throws {
        let pki = try TestPKI()
        let certificate = try pki.issue(.clean)
        let padded = try pki.paddedChain(of: certificate, toAtLeast: 1 << 20)
        #expect(try Data(contentsOf: URL(fileURLWithPath: padded)).count >= 1 << 20)
        let stub = try ResponseHandlerStub(links: ["/pub/acc?_ri_=1": Self.link])
        var configuration = TLSFront.Configuration(certificate: certificate)
        configuration.chainFile = padded
        let front = try TLSFront(upstream: stub, configuration: configuration)
        defer { front.shutdown(); stub.shutdown() }
        let request = TransportRequest(url: front.url("/pub/acc?_ri_=1"), allowsLocalAddresses: true, deadline: .now + .seconds(30))
        await #expect {
            _ = try await TLSFetchTransport().send(request, maxBodyBytes: 1 << 20)
        } throws: { error in
            "\(error)".contains("excessive message size")
        }
        #expect(stub.requestCount(for: "/pub/acc") == 0)
    }

    @Test func anAnswerCutInTheMiddleOfItsBodyFailsAfterItsStatusLine() async throws {
        let setup = try Setup { $0.behavior = .closeMidBody(afterBytes: 50_000) }
        setup.stub.enqueue([.hugeBody(bytes: 100_000)], for: "/pub/acc")
        await #expect {
            _ = try await setup.fetch()
        } throws: { error in
            (error as? TransportError)?.kind == .failedAfterAnswer
        }
        #expect(setup.front.handshakeCount == 1)
    }

    @Test func shuttingDownEndsAHeldConnectionAndKeepsTheCounts() async throws {
        let setup = try Setup { $0.behavior = .silent }
        let outcome = Task { try await setup.curl(within: .seconds(600)) }
        #expect(await setup.front.wait(until: .connections, reaches: 1) == 1)
        setup.front.shutdown()
        await #expect(throws: TransportError.self) { _ = try await outcome.value }
        #expect(setup.front.closedCount == 1)
        #expect(setup.front.connectionCount == 1)
    }

    @Test func thePKIsFilesGoAwayWithIt() throws {
        var directory: URL?
        do {
            let pki = try TestPKI()
            _ = try pki.issue(.clean)
            directory = pki.directory
            #expect(FileManager.default.fileExists(atPath: pki.rootFile))
        }
        #expect(!FileManager.default.fileExists(atPath: try #require(directory).path))
    }
}
