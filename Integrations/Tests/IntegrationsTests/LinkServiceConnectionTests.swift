import Foundation
import Testing

/// What one connection may cost `link-service`: slow and oversized bodies, HTTP/1.0, floods of connections that
/// send their bodies slowly. Real connections to the built binary; floods scaled down through the limits.
@Suite(.serialized)
struct LinkServiceConnectionTests {
    static func service(_ extra: [String: String]) throws -> ServiceProcess {
        try ServiceProcess(environment: LinkServiceProcessTests.local.merging(extra) { $1 })
    }

    /// A `POST /resolve` head announcing `length` bytes, and `sent` of them.
    static func slowBody(port: Int, length: Int = 1000, sent: Int = 10) -> RawConnection? {
        let connection = RawConnection(port: port)
        connection?.send(
            "POST /resolve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(length)\r\n\r\n" + String(repeating: " ", count: sent))
        return connection
    }

    @Test(.timeLimit(.minutes(1)))
    func aBodyThatTricklesIsCutAtTheBodyTimeout() async throws {
        let service = try Self.service(["ULK_BODY_TIMEOUT_SECONDS": "0.5", "ULK_IDLE_TIMEOUT_SECONDS": "60"])
        defer { service.stop() }
        let port = try await service.port()
        let slow = try #require(Self.slowBody(port: port))
        let started = ContinuousClock.now
        let (closed, received) = await slow.waitForClose()
        #expect(closed)
        #expect(received.isEmpty)
        #expect(ContinuousClock.now - started < .seconds(10), "closed by the 0.5 s body timeout, not the 60 s idle one")
    }

    @Test(.timeLimit(.minutes(1)))
    func aDeclaredBodyOverTheLimitIsRefusedAtOnceWithTheDocumented400() async throws {
        let service = try Self.service([:])
        defer { service.stop() }
        let port = try await service.port()
        let connection = try #require(RawConnection(port: port))
        connection.send("POST /resolve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10000000000\r\n\r\n{\"url\":")
        let (closed, received) = await connection.waitForClose()
        #expect(closed)
        #expect(received.hasPrefix("HTTP/1.1 400"), "\(received)")
        let body = try #require(received.range(of: "\r\n\r\n").map { received[$0.upperBound...] })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["code"] as? String == "invalidRequest")
        #expect((error["message"] as? String)?.contains("65536 bytes") == true, "\(error)")
        #expect(Set(json.keys) == ["requestedURL", "deepLinkURL", "webLinkURL", "isPubWeb", "duplicate", "route", "error"])
    }

    @Test(.timeLimit(.minutes(1)))
    func anHTTP10RequestWithoutKeepAliveIsClosedAfterItsAnswer() async throws {
        let service = try Self.service(["ULK_IDLE_TIMEOUT_SECONDS": "60"])
        defer { service.stop() }
        let port = try await service.port()
        let connection = try #require(RawConnection(port: port))
        connection.send("GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        let (closed, received) = await connection.waitForClose()
        #expect(closed, "still open: the 60 s idle timeout would have closed it, not the answer")
        #expect(received.contains(" 200 "), "\(received)")
        #expect(received.hasSuffix("ok\n"))
    }

    /// Below the connection limit, connections sending their bodies slowly leave room for the probe.
    @Test(.timeLimit(.minutes(1)))
    func healthzAnswersThroughASlowBodyFloodBelowTheLimit() async throws {
        let service = try Self.service(["ULK_MAX_CONNECTIONS": "40", "ULK_BODY_TIMEOUT_SECONDS": "60"])
        defer { service.stop() }
        let port = try await service.port()
        let flood = (0..<30).compactMap { _ in Self.slowBody(port: port) }
        #expect(flood.count == 30)
        #expect(try await LinkServiceProcessTests.request("http://127.0.0.1:\(port)/healthz").status == 200)
    }

    /// Above it, the probe takes the place of the connection that has been sending its body longest, and the warning
    /// says which connections it closes.
    @Test(.timeLimit(.minutes(1)))
    func healthzAnswersThroughASlowBodyFloodAboveTheLimitAndTheWarningNamesWhatItCloses() async throws {
        let limit = 20
        let service = try Self.service(["ULK_MAX_CONNECTIONS": "\(limit)", "ULK_BODY_TIMEOUT_SECONDS": "60"])
        defer { service.stop() }
        let port = try await service.port()
        let flood = (0..<(2 * limit)).compactMap { _ in Self.slowBody(port: port) }
        #expect(flood.count == 2 * limit)
        #expect(try await LinkServiceProcessTests.request("http://127.0.0.1:\(port)/healthz").status == 200)
        #expect(await service.waitForLine(containing: "connection limit reached"))
        #expect(service.log.contains("those sending a request body longest"), "\(service.log)")
        #expect(service.log.contains("connections.closedReadingBody="))
        // The flood's first connection was the first to go.
        #expect(await flood[0].waitForClose().closed)
    }
}
