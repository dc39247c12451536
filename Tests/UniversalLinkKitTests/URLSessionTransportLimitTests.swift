import Foundation
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// What `URLSessionTransport` stops at the headers, against the loopback stub.
struct URLSessionTransportLimitTests {
    func send(_ behavior: Behavior) async throws -> (Result<TransportResponse, any Error>, ResponseHandlerStub) {
        let stub = try ResponseHandlerStub()
        stub.setDefaultBehavior(behavior)
        let request = TransportRequest(url: stub.url("/pub/acc?_ri_=1"), allowsLocalAddresses: true)
        let transport = URLSessionTransport()
        let result: Result<TransportResponse, any Error>
        do {
            result = .success(try await transport.send(request, maxBodyBytes: 64 * 1024))
        } catch {
            result = .failure(error)
        }
        return (result, stub)
    }

    @Test func aCompressedAnswerIsRefusedAtItsHeadersAndIdentityWasAskedFor() async throws {
        let (result, stub) = try await send(.compressedBomb(bytes: 1 << 20))
        defer { stub.shutdown() }
        #expect(throws: TransportError.self) { try result.get() }
        if case .failure(let error) = result { #expect((error as? TransportError)?.kind == .encodedBody) }
        #expect(stub.requests.first?.headerValues("accept-encoding") == ["identity"])
    }

    @Test func aContentLengthOverTheCapIsRefusedAtTheHeaders() async throws {
        // 16 MiB, not 1 GiB: FoundationNetworking may read a cancelled fast body on, stalling every URLSession of
        // the test process meanwhile (Documentation.docc/TheResolution.md, "Limits of `URLSessionTransport` on Linux").
        let (result, stub) = try await send(.hugeBody(bytes: 16 << 20))
        defer { stub.shutdown() }
        if case .failure(let error) = result {
            #expect((error as? TransportError)?.kind == .bodyTooLarge)
        } else {
            Issue.record("a 16 MiB answer was accepted")
        }
    }

    @Test func aLocalAddressIsRefusedUnlessAllowed() async throws {
        let stub = try ResponseHandlerStub()
        defer { stub.shutdown() }
        // `localhost` at the stub's own port: URLSession looks the name up again and would connect to the stub
        // if the check let the request go.
        let transport = URLSessionTransport(nameResolver: .table(["localhost": ["127.0.0.1"]]))
        let url = URL(string: "http://localhost:\(stub.port)/pub/acc")!
        await #expect(throws: TransportError(.addressNotAllowed, detail: "localhost resolves to 127.0.0.1, which is not a public address")) {
            try await transport.send(TransportRequest(url: url), maxBodyBytes: 1024)
        }
        #expect(stub.connectionCount == 0)
        // Allowed, the same request reaches the stub: the count above could have moved.
        _ = try await transport.send(TransportRequest(url: url, allowsLocalAddresses: true), maxBodyBytes: 1024)
        #expect(stub.connectionCount == 1)
    }
}
