import Foundation
import Testing
import UniversalLinkKitTesting

/// `linux-host resolve`, `inapp` and `push` over real TLS on loopback, with certificates made for the test: a
/// private CA trusted with `--ca-file`, and certificate failures reported as `tls`.
struct ResolveTLSCommandTests {
    /// The demo links behind a TLS front presenting `spec`.
    final class Server: Sendable {
        let pki: TestPKI
        let stub: ResponseHandlerStub
        let front: TLSFront

        init(_ spec: CertificateSpec = .clean) throws {
            pki = try TestPKI()
            stub = try ResponseHandlerStub(links: ResponseHandlerStub.demoLinks)
            front = try TLSFront(upstream: stub, configuration: .init(certificate: try pki.issue(spec)))
        }

        deinit {
            front.shutdown()
            stub.shutdown()
        }

        var product: String { front.url("/pub/acc?_ri_=product").absoluteString }
    }

    static func errorCode(_ result: HostProcess.Result) throws -> String? {
        let notification = try #require(try result.jsonLines().first?["notification"] as? [String: Any])
        return (notification["PIOErrorResolveWebURL"] as? [String: Any])?["code"] as? String
    }

    @Test func aPrivateCAGivenWithCAFileIsTrusted() async throws {
        let server = try Server()
        let result = try await HostProcess.run(
            ["resolve", "--json", "--allow-loopback", "--ca-file", server.pki.rootFile, server.product])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let notification = try #require(try result.jsonLines().first?["notification"] as? [String: Any])
        #expect(notification["PIOResolvedDeeplinkURL"] as? String == "example-app://products/1234")
    }

    @Test(arguments: ["inapp", "push"])
    func inappAndPushTakeTheCAFileToo(_ command: String) async throws {
        let server = try Server()
        let input = command == "push" ? #"{"u": "\#(server.product)"}"# : server.product
        let result = try await HostProcess.run(
            [command, "--json", "--allow-loopback", "--execute-rsys-web-url", "--ca-file", server.pki.rootFile, input])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try Self.errorCode(result) == nil)
        #expect(server.stub.requestCount(for: "/pub/acc") == 1)
    }

    @Test func withoutTheCAFileTheCertificateIsATLSErrorSentNowhere() async throws {
        let server = try Server()
        let result = try await HostProcess.run(["resolve", "--json", "--allow-loopback", server.product])
        #expect(result.status == 1)
        #expect(try Self.errorCode(result) == "tls", "\(result.stdout)")
        #expect(!result.stdout.contains("retry later"))
        #expect(server.stub.requests.count == 0)
    }

    @Test func anExpiredCertificateSaysSoInText() async throws {
        let server = try Server(.expired)
        let result = try await HostProcess.run(
            ["resolve", "--allow-loopback", "--ca-file", server.pki.rootFile, server.product])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error tls"), "\(result.stdout)")
        #expect(result.stdout.contains("expired on"), "\(result.stdout)")
        #expect(server.stub.requests.count == 0)
    }

    /// A wrong `--ca-file` is a usage error naming the file, and nothing is sent.
    @Test func aMissingOrNonPEMCAFileIsAUsageErrorNamingTheFileBeforeAnyConnection() async throws {
        let server = try Server()
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("ulk-not-pem-\(UUID().uuidString).txt")
        try Data("just text\n".utf8).write(to: text)
        defer { try? FileManager.default.removeItem(at: text) }
        let missing = "/nonexistent/ulk-roots.pem"
        for file in [missing, text.path] {
            for command in ["resolve", "inapp", "push"] {
                let input = command == "push" ? #"{"u": "\#(server.product)"}"# : server.product
                let result = try await HostProcess.run([command, "--allow-loopback", "--ca-file", file, input])
                #expect(result.status == 2, "\(command) \(file): \(result.stderr)")
                #expect(result.stderr.contains(file), "\(result.stderr)")
            }
        }
        #expect(server.front.connectionCount == 0)
    }
}
