import Foundation
import Testing
import UniversalLinkKitTesting

/// The built `link-service` binary, as an operator runs it: configured by the environment, stopped by a signal.
@Suite(.serialized)
struct LinkServiceProcessTests {
    /// A restricted local configuration: loopback and http allowed, and only the loopback host resolved.
    static let local = ["HOST": "127.0.0.1", "PORT": "0", "ULK_ALLOW_LOCAL": "1", "ULK_BRANDED_DOMAINS": "127.0.0.1"]

    @Test(.timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT])
    func aSignalLetsTheRequestInFlightFinishThenTheServiceExitsZero(signal: Int32) async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.enqueue([.delay(1)], for: "/pub/acc?_ri_=deep")
        let service = try ServiceProcess(environment: Self.local.merging(["ULK_TIMEOUT_SECONDS": "10"]) { $1 })
        defer { service.stop() }
        let port = try await service.port()

        let body = #"{"url": "\#(stub.url("/pub/acc?_ri_=deep").absoluteString)"}"#
        let request = Task { try await Self.request("http://127.0.0.1:\(port)/resolve", body: body) }
        #expect(await stub.waitForRequests(1))
        service.signal(signal)

        let (status, data) = try await request.value
        #expect(status == 200)
        #expect(String(decoding: data, as: UTF8.self).contains(#""deepLinkURL":"example-app://products/1""#))
        #expect(await service.exitStatus() == 0)
        let log = await service.finalLog()
        #expect(log.contains("link.outcome=resolved"), "log: \(log)")
        #expect(log.contains("link handled"))
    }

    /// The issue's case: a Response Handler that never answers, a 60 s deadline, SIGTERM. The request gets
    /// `503 shuttingDown` at the end of the 2 s grace period and the process exits within grace + 1 s.
    @Test(.timeLimit(.minutes(1)))
    func shutdownEndsWithinTheGracePeriodWhateverTheDeadline() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.enqueue([.noResponse], for: "/pub/acc?_ri_=deep")
        let grace = 2.0
        let service = try ServiceProcess(
            environment: Self.local.merging(["ULK_TIMEOUT_SECONDS": "60", "ULK_SHUTDOWN_GRACE_SECONDS": "\(grace)"]) { $1 }
        )
        defer { service.stop() }
        let port = try await service.port()
        let base = "http://127.0.0.1:\(port)"
        #expect(try await Self.request(base + "/readyz").status == 200)

        let body = #"{"url": "\#(stub.url("/pub/acc?_ri_=deep").absoluteString)"}"#
        let request = Task { try await Self.request(base + "/resolve", body: body, timeout: 90) }
        #expect(await stub.waitForRequests(1))
        let signalled = ContinuousClock.now
        service.signal(SIGTERM)
        #expect(await service.waitForLine(containing: "shutdown started"))
        // Draining: not ready, still alive, new links refused at once.
        #expect(try await Self.request(base + "/readyz").status == 503)
        #expect(try await Self.request(base + "/healthz").status == 200)

        let (status, data) = try await request.value
        #expect(status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((json["error"] as? [String: Any])?["code"] as? String == "shuttingDown")
        #expect(await service.exitStatus() == 0)
        let elapsed = ContinuousClock.now - signalled
        #expect(elapsed < .seconds(grace + 1), "SIGTERM to exit: \(elapsed)")
        let log = await service.finalLog()
        #expect(log.contains("link.inFlight=1"), "log: \(log)")
        #expect(log.contains("shutdown.grace=2 s"))
        #expect(log.contains("shutdown finished"))
    }

    /// Every malformed, unusable or unknown variable: exit 2 and a message naming it, before anything listens.
    @Test(arguments: [
        (["LOG_LEVEL": "verbose"], "LOG_LEVEL"),
        (["ULK_ROUTES_FILE": "/nonexistent/routes.json"], "ULK_ROUTES_FILE"),
        (["ULK_ROUTES_FILE": "/"], "ULK_ROUTES_FILE"),
        (["ULK_ROUTES_FILE": "INVALID"], "ULK_ROUTES_FILE"),
        (["ULK_BRANDED_DOMAINS": "http://news.example.com"], "ULK_BRANDED_DOMAINS"),
        (["ULK_BRANDED_DOMAINS": "news.example.com:443"], "ULK_BRANDED_DOMAINS"),
        (["ULK_TIMEOUT_SECONDS": "ten"], "ULK_TIMEOUT_SECONDS"),
        (["ULK_SHUTDOWN_GRACE_SECONDS": "-1"], "ULK_SHUTDOWN_GRACE_SECONDS"),
        (["PORT": "http"], "PORT"),
        (["ULK_MAX_CONNECTIONS": "100000000"], "ULK_MAX_CONNECTIONS"),
        (["ULK_BRANDED_DOMAIN": "news.example.com"], "ULK_BRANDED_DOMAIN"),
        (["ULK_TRACING": "otlp"], "ULK_TRACING"),
        (["ULK_DRAIN_SECONDS": "301"], "ULK_DRAIN_SECONDS"),
        (["ULK_DRAIN_SECONDS": "soon"], "ULK_DRAIN_SECONDS"),
        (["ULK_BODY_TIMEOUT_SECONDS": "0"], "ULK_BODY_TIMEOUT_SECONDS"),
    ])
    func anUnusableVariableExitsTwoNamingIt(variables: [String: String], variable: String) async throws {
        var environment = Self.local.merging(variables) { $1 }
        var invalidTable: URL?
        defer { if let invalidTable { try? FileManager.default.removeItem(at: invalidTable) } }
        if variables["ULK_ROUTES_FILE"] == "INVALID" {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString).json")
            try Data(#"{"namespaces": [{"routes": "#.utf8).write(to: file)
            invalidTable = file
            environment["ULK_ROUTES_FILE"] = file.path
        }
        let service = try ServiceProcess(environment: environment)
        defer { service.stop() }
        #expect(await service.exitStatus() == 2)
        let log = await service.finalLog()
        #expect(log.hasPrefix("link-service: \(variable): "), "stderr: \(log)")
        #expect(!log.contains("listening"))
    }

    @Test func withoutBrandedDomainsItRefusesToStartAndSaysWhichVariable() async throws {
        let service = try ServiceProcess(environment: ["PORT": "0"])
        defer { service.stop() }
        #expect(await service.exitStatus() == 2)
        #expect(await service.finalLog().contains("ULK_BRANDED_DOMAINS"))
    }

    /// Privacy by default: a whole run at `trace` (every event of the manager, refusals, errors, the metrics)
    /// carries neither a link's query nor a password; `ULK_LOG_FULL_URLS=1` brings the query back and says so.
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func nothingARunLogsCarriesTheQueryOrAPasswordUnlessFullURLsAreOn(fullURLs: Bool) async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        var environment = Self.local.merging(["LOG_LEVEL": "trace"]) { $1 }
        if fullURLs { environment["ULK_LOG_FULL_URLS"] = "1" }
        let service = try ServiceProcess(environment: environment)
        defer { service.stop() }
        let port = try await service.port()
        let base = "http://127.0.0.1:\(port)"

        let tracked = stub.url("/pub/acc?_ri_=RECIPIENT42&_ei_=EMAIL7#frag9").absoluteString
        let withPassword = tracked.replacingOccurrences(of: "http://", with: "http://alice:hunter2@")
        for link in [tracked, withPassword, "https://evil.example.org/pub/acc?_ri_=RECIPIENT42", "not a url ?_ri_=RECIPIENT42"] {
            _ = try await Self.request(base + "/resolve", body: #"{"url": "\#(link)"}"#)
            let open = try await LoopbackHTTP.send(base + "/open?url=\(link.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
            #expect(open.status > 0)
        }
        let metrics = String(decoding: try await Self.request(base + "/metrics").body, as: UTF8.self)
        service.signal(SIGTERM)
        #expect(await service.exitStatus() == 0)
        let log = await service.finalLog()
        let everything = log + metrics
        #expect(log.contains("link handled"))
        #expect(log.contains("link received"), "trace events are in the log")
        #expect(!everything.contains("hunter2"))
        #expect(!everything.contains("alice"))
        #expect(everything.contains("RECIPIENT42") == fullURLs)
        #expect(everything.contains("EMAIL7") == fullURLs)
        #expect(everything.contains("frag9") == fullURLs)
        #expect(log.contains("ULK_LOG_FULL_URLS=1") == fullURLs)
    }

    /// More idle connections than the limit: the oldest idle ones are closed, the descriptors stay bounded, a line
    /// says so, and `/healthz` still answers.
    @Test(.timeLimit(.minutes(1)))
    func moreIdleConnectionsThanTheLimitStillLeaveHealthzAnswering() async throws {
        let limit = 20
        let service = try ServiceProcess(
            environment: Self.local.merging(["ULK_MAX_CONNECTIONS": "\(limit)", "ULK_IDLE_TIMEOUT_SECONDS": "120"]) { $1 }
        )
        defer { service.stop() }
        let port = try await service.port()
        let descriptorsBefore = Self.openDescriptors(of: service.processIdentifier)

        let idle = (0..<(3 * limit)).compactMap { _ in RawConnection(port: port) }
        #expect(idle.count == 3 * limit)
        // Answered after every idle connection before it in the accept queue was taken in.
        #expect(try await Self.request("http://127.0.0.1:\(port)/healthz").status == 200)
        #expect(await service.waitForLine(containing: "connection limit reached"))
        #expect(service.log.contains("connections.limit=\(limit)"))
        let descriptorsAfter = Self.openDescriptors(of: service.processIdentifier)
        #expect(descriptorsAfter - descriptorsBefore <= limit + 2, "\(descriptorsBefore) -> \(descriptorsAfter)")
        // The oldest idle connection was closed by the server.
        #expect(await idle[0].waitForClose().closed)
    }

    @Test(.timeLimit(.minutes(1)))
    func aConnectionThatSendsHalfAHeadIsClosedAtTheHeaderTimeoutAndAnIdleOneAtTheIdleTimeout() async throws {
        let service = try ServiceProcess(
            environment: Self.local.merging(["ULK_HEADER_TIMEOUT_SECONDS": "0.5", "ULK_IDLE_TIMEOUT_SECONDS": "1"]) { $1 }
        )
        defer { service.stop() }
        let port = try await service.port()
        let slow = try #require(RawConnection(port: port))
        let idle = try #require(RawConnection(port: port))
        let started = ContinuousClock.now
        slow.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        let (slowClosed, slowReceived) = await slow.waitForClose()
        #expect(slowClosed)
        #expect(slowReceived.isEmpty)
        #expect(ContinuousClock.now - started < .seconds(1), "closed at the 0.5 s header timeout, before the 1 s idle one")
        let (idleClosed, _) = await idle.waitForClose()
        #expect(idleClosed)
        // A whole request on a fresh connection is answered.
        let whole = try #require(RawConnection(port: port))
        whole.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(await whole.waitForClose().received.hasPrefix("HTTP/1.1 200"))
    }

    /// `GET` (or `POST` with `body`) with a client of its own.
    static func request(_ address: String, body: String? = nil, timeout: TimeInterval = 10) async throws -> (status: Int, body: Data) {
        let response = try await LoopbackHTTP.send(address, body: body.map { Data($0.utf8) }, timeout: timeout)
        return (response.status, response.body)
    }

    /// The number of open file descriptors of a process.
    static func openDescriptors(of pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }
}
