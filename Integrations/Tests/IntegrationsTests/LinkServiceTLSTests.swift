import Foundation
import Testing
import UniversalLinkKitTesting

/// The built `link-service` against a Response Handler served over real TLS on loopback, with certificates made
/// for the test: `ULK_CA_FILE` trusts a private CA, a certificate failure answers 502 `tls`.
@Suite(.serialized)
struct LinkServiceTLSTests {
    static let local = LinkServiceProcessTests.local

    /// The service's links behind a TLS front presenting `spec`.
    final class Handler: Sendable {
        let pki: TestPKI
        let stub: ResponseHandlerStub
        let front: TLSFront

        init(_ spec: CertificateSpec = .clean) throws {
            pki = try TestPKI()
            stub = try ResponseHandlerStub(links: ServiceFixture.links)
            var configuration = TLSFront.Configuration(certificate: try pki.issue(spec))
            configuration.offersHTTP2 = true
            front = try TLSFront(upstream: stub, configuration: configuration)
        }

        deinit {
            front.shutdown()
            stub.shutdown()
        }

        var body: String { #"{"url": "\#(front.url("/pub/acc?_ri_=deep").absoluteString)"}"# }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPrivateCAInULKCAFileIsTrusted() async throws {
        let handler = try Handler()
        let service = try ServiceProcess(environment: Self.local.merging(["ULK_CA_FILE": handler.pki.rootFile]) { $1 })
        defer { service.stop() }
        let port = try await service.port()
        let (status, data) = try await LinkServiceProcessTests.request("http://127.0.0.1:\(port)/resolve", body: handler.body)
        #expect(status == 200, "\(String(decoding: data, as: UTF8.self))")
        #expect(String(decoding: data, as: UTF8.self).contains(#""deepLinkURL":"example-app://products/1""#))
        #expect(handler.stub.requestCount(for: "/pub/acc") == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func aCertificateTheServiceDoesNotTrustIs502TLSWithNoRequest() async throws {
        let handler = try Handler()
        let service = try ServiceProcess(environment: Self.local)
        defer { service.stop() }
        let port = try await service.port()
        // `GET /open` answers with the code's status; `POST /resolve` with 200 and the whole result.
        let link = handler.front.url("/pub/acc?_ri_=deep").absoluteString
        let (status, data) = try await LinkServiceProcessTests.request(
            "http://127.0.0.1:\(port)/open?url=" + ServiceFixture.encoded(link))
        #expect(status == 502)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["code"] as? String == "tls", "\(json)")
        #expect((error["message"] as? String)?.contains("which is not trusted") == true, "\(json)")
        let resolved = try await LinkServiceProcessTests.request("http://127.0.0.1:\(port)/resolve", body: handler.body)
        #expect(resolved.status == 200)
        #expect(String(decoding: resolved.body, as: UTF8.self).contains(#""code":"tls""#))
        #expect(handler.stub.requests.count == 0)
    }

    /// A wrong `ULK_CA_FILE` or `ULK_MAX_CONCURRENT_PER_HOST` stops the service at start, naming the variable.
    @Test(arguments: [
        (["ULK_CA_FILE": "/nonexistent/roots.pem"], "ULK_CA_FILE"),
        (["ULK_CA_FILE": "/etc/hostname"], "ULK_CA_FILE"),
        (["ULK_MAX_CONCURRENT_PER_HOST": "0"], "ULK_MAX_CONCURRENT_PER_HOST"),
        (["ULK_MAX_CONCURRENT_PER_HOST": "many"], "ULK_MAX_CONCURRENT_PER_HOST"),
    ])
    func anUnusableTransportVariableExitsTwoNamingIt(variables: [String: String], variable: String) async throws {
        let service = try ServiceProcess(environment: Self.local.merging(variables) { $1 })
        defer { service.stop() }
        #expect(await service.exitStatus() == 2)
        let log = await service.finalLog()
        #expect(log.hasPrefix("link-service: \(variable): "), "stderr: \(log)")
        #expect(!log.contains("listening"))
    }
}
