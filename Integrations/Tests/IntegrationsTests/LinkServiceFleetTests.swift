import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UniversalLinkKitTesting

/// Several `link-service` processes on one PostgreSQL database, as a fleet behind a load balancer runs them.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.isAvailable, PostgresTestDatabase.skipReason))
struct LinkServiceFleetTests {
    static let secret = "fleet-test-secret-0123456789abcdef"

    static func environment(database: String, _ extra: [String: String] = [:]) -> [String: String] {
        LinkServiceProcessTests.local.merging([
            "ULK_POSTGRES_URL": database, "ULK_CLAIM_SECRET": secret, "ULK_DUPLICATE_WINDOW_SECONDS": "30",
        ]) { $1 }.merging(extra) { $1 }
    }

    /// A session that sends every request at once rather than six per host.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 400
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    static func resolve(port: Int, link: String) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/resolve")))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"url": "\#(link)"}"#.utf8)
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// The answer without the per-request `duplicate` flag: what every caller of one click must agree on.
    static func destination(_ body: String) throws -> [String: String] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        return [
            "deep": json["deepLinkURL"] as? String ?? "", "web": json["webLinkURL"] as? String ?? "",
            "error": ((json["error"] as? [String: Any])?["code"] as? String) ?? "",
        ]
    }

    @Test(.timeLimit(.minutes(2)))
    func threeReplicasAnswer300ConcurrentRequestsForOneLinkWithOneUpstreamRequest() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.enqueue([.delay(0.5)], for: "/pub/acc?_ri_=deep")
        let database = try await PostgresTestDatabase.createDatabase()
        let replicas = try (0..<3).map { _ in try ServiceProcess(environment: Self.environment(database: database)) }
        defer { replicas.forEach { $0.stop() } }
        var ports: [Int] = []
        for replica in replicas { ports.append(try await replica.port()) }

        let link = stub.url("/pub/acc?_ri_=deep").absoluteString
        let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<300 {
                let port = ports[index % ports.count]
                group.addTask { try await Self.resolve(port: port, link: link) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stub.requestCount == 1)
        #expect(answers.count == 300)
        #expect(answers.allSatisfy { $0.0 == 200 }, "\(answers.filter { $0.0 != 200 }.prefix(3))")
        let destinations = Set(try answers.map { try Self.destination($0.1) })
        #expect(destinations == [["deep": "example-app://products/1", "web": "https://www.example.com/products/1", "error": ""]])
    }

    @Test(.timeLimit(.minutes(2)))
    func threeReplicasAnswer1000DistinctLinksInOneBurstWithOneUpstreamRequestEach() async throws {
        let stub = try ResponseHandlerStub()
        defer { stub.shutdown() }
        // Each link's own destinations, named after its query.
        stub.setResponder { request in
            let id = request.query ?? ""
            return .json(ResponseHandlerStub.Link(webLinkUrl: "https://www.example.com/\(id)", mobileDeepLinkUrl: "example-app://\(id)").json)
        }
        let database = try await PostgresTestDatabase.createDatabase()
        let replicas = try (0..<3).map { _ in try ServiceProcess(environment: Self.environment(database: database)) }
        defer { replicas.forEach { $0.stop() } }
        var ports: [Int] = []
        for replica in replicas { ports.append(try await replica.port()) }

        let answers = try await withThrowingTaskGroup(of: (Int, Int, String).self) { group in
            for index in 0..<1000 {
                let port = ports[index % ports.count]
                let link = stub.url("/pub/acc?_ri_=n\(index)").absoluteString
                group.addTask {
                    let (status, body) = try await Self.resolve(port: port, link: link)
                    return (index, status, body)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stub.requestCount == 1000)
        #expect(Set(stub.requests.map(\.target)).count == 1000)
        for (index, status, body) in answers {
            #expect(status == 200)
            #expect(try Self.destination(body)["deep"] == "example-app://_ri_=n\(index)", "\(body)")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func whenTheWinnerIsKilledMidRequestAnotherReplicaAnswersWithinLeasePlusDeadline() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.enqueue([.noResponse], for: "/pub/acc?_ri_=deep")
        let database = try await PostgresTestDatabase.createDatabase()
        let timeout = 2.0
        let lease = timeout + 2
        // A short window: a replica remembers its callers' answers (a timeout too) for the window, so a client's
        // retry on the same replica is answered anew only after it.
        let environment = Self.environment(
            database: database, ["ULK_TIMEOUT_SECONDS": "\(timeout)", "ULK_DUPLICATE_WINDOW_SECONDS": "0.5"])
        let winner = try ServiceProcess(environment: environment)
        let survivor = try ServiceProcess(environment: environment)
        defer { winner.stop(); survivor.stop() }
        let (winnerPort, survivorPort) = (try await winner.port(), try await survivor.port())
        let link = stub.url("/pub/acc?_ri_=deep").absoluteString

        let lost = Task { try? await Self.resolve(port: winnerPort, link: link) }
        #expect(await stub.waitForRequests(1))
        winner.signal(SIGKILL)
        let killed = ContinuousClock.now
        _ = await lost.value

        // The client retries on the other replica until it answers: once the dead winner's lease ends, it takes over.
        var answer: (status: Int, body: String) = (0, "")
        while ContinuousClock.now - killed < .seconds(lease + timeout + 5) {
            answer = try await Self.resolve(port: survivorPort, link: link)
            if answer.status == 200, try Self.destination(answer.body)["error"] == "" { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let elapsed = ContinuousClock.now - killed
        #expect(try Self.destination(answer.body)["deep"] == "example-app://products/1", "\(answer)")
        #expect(elapsed < .seconds(lease + timeout + 0.5), "answered \(elapsed) after the kill")
        #expect(stub.requestCount <= 2)
    }

    @Test(.timeLimit(.minutes(1)))
    func twoReplicasStartingAtOnceOnAnEmptyDatabaseBothComeUp() async throws {
        let database = try await PostgresTestDatabase.createDatabase()
        let replicas = try (0..<2).map { _ in try ServiceProcess(environment: Self.environment(database: database)) }
        defer { replicas.forEach { $0.stop() } }
        for replica in replicas {
            let port = try await replica.port()
            let (status, body) = try await LinkServiceProcessTests.request("http://127.0.0.1:\(port)/readyz")
            #expect(status == 200)
            #expect(String(decoding: body, as: UTF8.self) == "ready\n")
            #expect(replica.log.contains("claims shared through PostgreSQL"))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anUnreachableDatabaseAtStartExitsTwoNamingTheVariableWithoutThePassword() async throws {
        let port = try SilentListener.closedPort()
        let service = try ServiceProcess(environment: Self.environment(
            database: "postgres://ulk:hunter2-password@127.0.0.1:\(port)/ulk", ["LOG_LEVEL": "trace"]))
        defer { service.stop() }
        #expect(await service.exitStatus() == 2)
        let log = await service.finalLog()
        #expect(log.contains("link-service: ULK_POSTGRES_URL: cannot use the claims database"), "log: \(log)")
        #expect(log.contains("postgres://ulk:***@127.0.0.1:\(port)/ulk"))
        #expect(!log.contains("hunter2"), "log: \(log)")
    }

    @Test(.timeLimit(.minutes(1)))
    func metricsCountTheClaimsAndTheLogNeverShowsThePassword() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        // The test server trusts loopback clients, so the password is sent and ignored: it must not be logged.
        let database = try await PostgresTestDatabase.createDatabase().replacingOccurrences(of: "://ulk@", with: "://ulk:hunter2-password@")
        let service = try ServiceProcess(environment: Self.environment(database: database, ["LOG_LEVEL": "trace"]))
        defer { service.stop() }
        let port = try await service.port()
        _ = try await Self.resolve(port: port, link: stub.url("/pub/acc?_ri_=web").absoluteString)
        let (_, metrics) = try await LinkServiceProcessTests.request("http://127.0.0.1:\(port)/metrics")
        let text = String(decoding: metrics, as: UTF8.self)
        #expect(text.contains(#"ulk_claims_total{result="won"} 1"#), "\(text)")
        #expect(text.contains("ulk_claim_duration_seconds_bucket"))
        service.signal(SIGTERM)
        #expect(await service.exitStatus() == 0)
        let log = await service.finalLog()
        #expect(log.contains("claims.store=postgres://ulk:***@127.0.0.1:"), "log: \(log)")
        #expect(!log.contains("hunter2"))
    }
}
