import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// The body cap applied while receiving, through the real URLSession path, on answers that announce no length:
/// a cap that only read `Content-Length`, or that waited for the body's end, could not refuse them.
///
/// The endless bodies are paced (64 KiB every 0.3 s). An unpaced endless body on loopback makes FoundationNetworking
/// keep the cancelled transfer running for seconds, stalling every other request of the test process (see the
/// limits of `URLSessionTransport` on Linux in Documentation.docc/TheResolution.md); the pace changes nothing about
/// what is checked: the body never ends, so only a cap applied while receiving can produce `responseTooLarge` before
/// the 60 s deadline.
struct StreamingBodyCapTests {
    static let endless = Behavior.trickle(bytesPerChunk: 1 << 20, interval: 0.3, then: .chunkedBody(bytes: 64 << 30))

    @Test func anEndlessChunkedAnswerIsRefusedAsTooLargeInsteadOfRunningIntoTheDeadline() async throws {
        let fixture = try URLSessionIntegrationTests.Fixture()
        fixture.stub.setDefaultBehavior(Self.endless)
        let outcome = await fixture.activate("/pub/acc?_ri_=chunked")
        let error = try #require(outcome.resolvedLink?.error)
        #expect(error.code == .responseTooLarge)
        await fixture.manager.waitUntilIdle()
        #expect(fixture.recorder.count == 1)
        #expect(fixture.stub.requests.count == 1)
        fixture.stub.shutdown()
    }

    @Test func theTransportReturnsAtTheCapOnAnEndlessChunkedBody() async throws {
        let stub = try ResponseHandlerStub()
        defer { stub.shutdown() }
        stub.setDefaultBehavior(Self.endless)
        let transport = URLSessionTransport()
        let request = TransportRequest(url: stub.url("/pub/acc?_ri_=1"), headerFields: ["Accept": "application/json"], allowsLocalAddresses: true)

        await #expect {
            _ = try await transport.send(request, maxBodyBytes: 100_000)
        } throws: { error in
            (error as? TransportError)?.kind == .bodyTooLarge && "\(error)".contains("100000")
        }
    }

    @Test func aShortChunkedAnswerIsReadToItsLastChunkAndTheNextLinkStillResolves() async throws {
        let fixture = try URLSessionIntegrationTests.Fixture()
        let body = #"{"webLinkUrl": "https://www.example.com/chunked", "mobileDeepLinkUrl": null}"#
        // Ten bytes of an unfinished JSON object, under the cap: read whole, then judged (and refused) as JSON.
        fixture.stub.enqueue([.chunkedBody(bytes: 10)], for: "/pub/acc")
        fixture.stub.enqueue([.json(body)], for: "/pub/acc")
        let first = await fixture.activate("/pub/acc?_ri_=a")
        let second = await fixture.activate("/pub/acc?_ri_=b")
        #expect(first.resolvedLink?.error?.code == .invalidResponse)
        #expect(second.resolvedLink?.webLinkURL == URL(string: "https://www.example.com/chunked"))
        #expect(fixture.stub.requests.count == 2)
    }
}
