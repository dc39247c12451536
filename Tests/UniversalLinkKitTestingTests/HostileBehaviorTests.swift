import Foundation
import Testing
import UniversalLinkKitTesting

/// The stub's hostile behaviours, read off the wire.
struct HostileBehaviorTests {
    static let product = ResponseHandlerStub.Link(webLinkUrl: "https://www.example.com/p/1", mobileDeepLinkUrl: nil)

    @Test func anEndlessBodyNeverEndsAndItsBytesAreCountedWhenTheClientHangsUp() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        stub.enqueue([.endlessBody], for: "/pub/acc")
        do {
            let text = try ResponseHandlerStubTests.readFirstMebibyteThenHangUp(stub)
            #expect(text.contains("Transfer-Encoding: chunked\r\n"))
            #expect(text.contains("\r\n\r\n10000\r\n{\"webLinkUrl\":\"https://www.example.com/"))
        }
        #expect(await stub.waitForAnswerEnd(timeout: .seconds(600)))
        #expect(stub.bytesSent >= 1 << 20)
        let next = try RawHTTPClient(port: stub.port)
        next.send("GET /pub/acc HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n")
        #expect(next.readResponse()?.bodyText == Self.product.json)
    }

    @Test func aCompressedBombIsAGzipStreamThatInflatesFarBeyondItsSize() throws {
        let stub = try ResponseHandlerStub()
        defer { stub.shutdown() }
        stub.setDefaultBehavior(.compressedBomb(bytes: 64 * 1024))
        let client = try RawHTTPClient(port: stub.port)
        client.send("GET /pub/acc HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.status == 200)
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(response.body.count == 64 * 1024)
        #expect(Array(response.body.prefix(3)) == [0x1f, 0x8b, 8])
    }

    @Test func aResetAfterTheStatusLineSendsOnlyTheStatusLine() throws {
        let stub = try ResponseHandlerStub()
        defer { stub.shutdown() }
        stub.setDefaultBehavior(.resetAfterStatusLine)
        let client = try RawHTTPClient(port: stub.port)
        client.send("GET /pub/acc HTTP/1.1\r\nHost: x\r\n\r\n")
        let (end, bytes) = client.readToEnd()
        #expect(String(decoding: bytes, as: UTF8.self) == "HTTP/1.1 200 OK\r\n")
        #expect(end == .reset || end == .endOfStream)
    }
}
