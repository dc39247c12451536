import Foundation
import PostgresNIO
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

    static func resolve(port: Int, link: String) async throws -> (status: Int, body: String) {
        let response = try await LoopbackHTTP.send(
            "http://127.0.0.1:\(port)/resolve", body: Data(#"{"url": "\#(link)"}"#.utf8), timeout: 30)
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// `GET /open` of `link`: its status and body (an error's JSON, or empty with a redirect, which is not followed).
    static func open(port: Int, link: String) async throws -> (status: Int, body: String) {
        let query = try #require(link.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let response = try await LoopbackHTTP.send("http://127.0.0.1:\(port)/open?url=\(query)", timeout: 30)
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// The answer without the per-request `duplicate` flag: what every caller of one click must agree on.
    static func destination(_ body: String) throws -> [String: String] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        return [
            "deep": json["deepLinkURL"] as? String ?? "", "web": json["webLinkURL"] as? String ?? "",
            "error": ((json["error"] as? [String: Any])?["code"] as? String) ?? "",
        ]
    }

    /// The stub answering every link with its own destinations, named after its query, after `delay` seconds.
    static func namedLinksStub(delay: Double = 0) throws -> ResponseHandlerStub {
        let stub = try ResponseHandlerStub()
        stub.setResponder { request in
            let id = request.query ?? ""
            let answer = Behavior.json(
                #"{"webLinkUrl": "https://www.example.com/\#(id)", "mobileDeepLinkUrl": "example-app://\#(id)"}"#)
            return delay > 0 ? .delay(delay, then: answer) : answer
        }
        return stub
    }

    /// `count` concurrent requests for `link` (`POST /resolve`, or `GET /open` with `opening`), spread over `ports`:
    /// each one's status, body and duration.
    static func burst(
        _ count: Int, link: String, ports: [Int], opening: Bool = false
    ) async throws -> [(status: Int, body: String, took: Duration)] {
        try await withThrowingTaskGroup(of: (Int, String, Duration).self) { group in
            for index in 0..<count {
                let port = ports[index % ports.count]
                group.addTask {
                    let started = ContinuousClock.now
                    let (status, body) = opening ? try await Self.open(port: port, link: link) : try await Self.resolve(port: port, link: link)
                    return (status, body, ContinuousClock.now - started)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// A probe's status and text.
    static func probe(_ port: Int, _ path: String) async throws -> (status: Int, text: String) {
        let (status, body) = try await LinkServiceProcessTests.request("http://127.0.0.1:\(port)\(path)")
        return (status, String(decoding: body, as: UTF8.self))
    }

    /// The value of `ulk_claims_total{result="failed"}` on a replica's `/metrics`; 0 when not yet exported.
    static func failedClaims(_ port: Int) async throws -> Int {
        let (_, body) = try await LinkServiceProcessTests.request("http://127.0.0.1:\(port)/metrics")
        let prefix = #"ulk_claims_total{result="failed"} "#
        let line = String(decoding: body, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
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
        #expect(stub.requests.count == 1)
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
            return .json(#"{"webLinkUrl": "https://www.example.com/\#(id)", "mobileDeepLinkUrl": "example-app://\#(id)"}"#)
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
        #expect(stub.requests.count == 1000)
        #expect(Set(stub.requests.map(\.target)).count == 1000)
        for (index, status, body) in answers {
            #expect(status == 200)
            #expect(try Self.destination(body)["deep"] == "example-app://_ri_=n\(index)", "\(body)")
        }
    }

    /// The value of `name` (with its labels, as exposed) on a replica's `/metrics`; 0 when not yet exported.
    static func sample(_ port: Int, _ name: String) async throws -> Int {
        let (_, body) = try await LinkServiceProcessTests.request("http://127.0.0.1:\(port)/metrics")
        let line = String(decoding: body, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Int($0.dropFirst(name.count + 1)) } ?? 0
    }

    /// The winner's process dies (SIGKILL) while its request hangs at the Response Handler: its database session ends
    /// with it, and the caller already waiting on another replica gets the link at once, from a takeover (the
    /// click's second and last request), not a 504 after the lease.
    @Test(.timeLimit(.minutes(2)))
    func whenTheWinnerIsKilledMidRequestAWaitingCallerOfAnotherReplicaGetsTheLinkAtOnce() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.enqueue([.noResponse], for: "/pub/acc?_ri_=deep")
        let database = try await PostgresTestDatabase.createDatabase()
        let environment = Self.environment(database: database)
        let winner = try ServiceProcess(environment: environment)
        let survivor = try ServiceProcess(environment: environment)
        defer { winner.stop(); survivor.stop() }
        let (winnerPort, survivorPort) = (try await winner.port(), try await survivor.port())
        let link = stub.url("/pub/acc?_ri_=deep").absoluteString

        let lost = Task { try? await Self.open(port: winnerPort, link: link) }
        #expect(await stub.waitForRequests(1))
        let waiting = Task { try await Self.open(port: survivorPort, link: link) }
        // The survivor found the click held and waits for its outcome.
        let joined = #"ulk_claims_total{result="joined"}"#
        #expect(try await PostgresTestDatabase.eventually { try await Self.sample(survivorPort, joined) == 1 })
        winner.signal(SIGKILL)
        let killed = ContinuousClock.now
        _ = await lost.value

        let answer = try await waiting.value
        let elapsed = ContinuousClock.now - killed
        #expect(answer.status == 302, "\(answer)")
        // The stub answers the takeover at once: about a second is the bound, the 12 s lease is what it replaces.
        #expect(elapsed < .milliseconds(1500), "answered \(elapsed) after the kill")
        #expect(stub.requests.count == 2)
        #expect(try await Self.sample(survivorPort, #"ulk_claims_total{result="takenOver"}"#) == 1)
        // The takeover's outcome settles the click: a later caller gets it with no third request.
        #expect(try await Self.open(port: survivorPort, link: link).status == 302)
        #expect(stub.requests.count == 2)
    }

    /// A holder that is alive but cut off keeps its session: the lease, not the session, ends its claim.
    @Test(.timeLimit(.minutes(2)))
    func aLiveHolderKeepsItsClaimUntilItsLeaseEnds() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.enqueue([.noResponse], for: "/pub/acc?_ri_=deep")
        let database = try await PostgresTestDatabase.createDatabase()
        let environment = Self.environment(database: database, ["ULK_TIMEOUT_SECONDS": "2"])
        let holder = try ServiceProcess(environment: environment)
        let other = try ServiceProcess(environment: environment)
        defer { holder.stop(); other.stop() }
        let (holderPort, otherPort) = (try await holder.port(), try await other.port())
        let link = stub.url("/pub/acc?_ri_=deep").absoluteString
        let held = Task { try await Self.resolve(port: holderPort, link: link) }
        #expect(await stub.waitForRequests(1))
        // Within the holder's deadline: the other replica waits, and sends nothing.
        let waited = try await Self.resolve(port: otherPort, link: link)
        #expect(try Self.destination(waited.body)["error"] == "timeout", "\(waited)")
        #expect(stub.requests.count == 1)
        _ = try await held.value
    }

    /// One click asked on two replicas at once: summed over the fleet, it is `resolved` once and `joined` once.
    @Test(.timeLimit(.minutes(2)))
    func aClickAnsweredByTwoReplicasCountsResolvedOnceInTheFleetSum() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.enqueue([.delay(0.5)], for: "/pub/acc?_ri_=deep")
        let database = try await PostgresTestDatabase.createDatabase()
        let replicas = try (0..<2).map { _ in try ServiceProcess(environment: Self.environment(database: database)) }
        defer { replicas.forEach { $0.stop() } }
        var ports: [Int] = []
        for replica in replicas { ports.append(try await replica.port()) }
        let answers = try await Self.burst(2, link: stub.url("/pub/acc?_ri_=deep").absoluteString, ports: ports)
        #expect(answers.allSatisfy { $0.status == 200 })
        #expect(stub.requests.count == 1)
        var resolved = 0
        var joined = 0
        for port in ports {
            resolved += try await Self.sample(port, #"ulk_links_total{outcome="resolved"}"#)
            joined += try await Self.sample(port, #"ulk_links_total{outcome="joined"}"#)
        }
        #expect(resolved == 1)
        #expect(joined == 1)
    }

    /// The claims table locked for longer than a claim may take: the claim is refused (reject) and cancelled in the
    /// database, and once the lock goes the same link is resolved at once, not held for a lease by a claim nobody
    /// resolves.
    @Test(.timeLimit(.minutes(2)))
    func aClaimHeldUpByALockedTableIsCancelledInTheDatabaseAndTheLinkIsResolvedOnceItAnswers() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        let database = try await PostgresTestDatabase.createDatabase()
        let service = try ServiceProcess(environment: Self.environment(
            database: database, ["ULK_CLAIMS_ON_FAILURE": "reject", "ULK_TIMEOUT_SECONDS": "4", "ULK_DUPLICATE_WINDOW_SECONDS": "2"]))
        defer { service.stop() }
        let port = try await service.port()
        let link = stub.url("/pub/acc?_ri_=deep").absoluteString
        try await PostgresTestDatabase.withClients(database: database) { clients in
            let lock = TableLock(client: clients[0], table: "ulk_claims")
            try await lock.take()
            let refused = try await Self.open(port: port, link: link)
            #expect(refused.status == 503)
            #expect(refused.body.contains("claimStoreUnavailable"), "\(refused)")
            // Cancelled by the database (its statement timeout), not left waiting for the lock.
            let cancelled = try await PostgresTestDatabase.eventually {
                var waiting = 0
                for try await count in try await clients[0].query(
                    "SELECT count(*)::integer FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
                ).decode(Int.self) { waiting = count }
                return waiting == 0
            }
            #expect(cancelled, "a claim statement still waits for the lock")
            lock.release()
        }
        let started = ContinuousClock.now
        let answer = try await Self.open(port: port, link: link)
        #expect(answer.status == 302, "\(answer)")
        #expect(ContinuousClock.now - started < .seconds(3), "a claim left behind held the click for its lease")
        #expect(stub.requests.count == 1)
    }

    /// The same with two replicas resolving locally while the table is locked: the other replica asked afterwards
    /// resolves the link at once (the local policy's second request), never a 504 after a lease.
    @Test(.timeLimit(.minutes(2)))
    func withLocalClaimsALinkResolvedDuringALockIsResolvedAtOnceByAnotherReplicaAfterIt() async throws {
        let stub = try Self.namedLinksStub()
        defer { stub.shutdown() }
        let database = try await PostgresTestDatabase.createDatabase()
        let environment = Self.environment(database: database, ["ULK_CLAIMS_ON_FAILURE": "local", "ULK_TIMEOUT_SECONDS": "4"])
        let replicas = try (0..<2).map { _ in try ServiceProcess(environment: environment) }
        defer { replicas.forEach { $0.stop() } }
        let ports = [try await replicas[0].port(), try await replicas[1].port()]
        let links = (0..<5).map { stub.url("/pub/acc?_ri_=l\($0)").absoluteString }
        try await PostgresTestDatabase.withClients(database: database) { clients in
            let lock = TableLock(client: clients[0], table: "ulk_claims")
            try await lock.take()
            for link in links { #expect(try await Self.open(port: ports[0], link: link).status == 302) }
            lock.release()
        }
        for link in links {
            let started = ContinuousClock.now
            let answer = try await Self.open(port: ports[1], link: link)
            #expect(answer.status == 302, "\(answer)")
            #expect(ContinuousClock.now - started < .seconds(3), "a claim left behind held the click for its lease")
        }
    }

    /// A role that may not create the table: one line naming `CREATE`, the schema and the `GRANT` to run, exit 2.
    @Test(.timeLimit(.minutes(1)))
    func aRoleWithoutCreateOnTheSchemaExitsTwoWithOneLineNamingTheGrant() async throws {
        let database = try await PostgresTestDatabase.createDatabase()
        let role = "ulk_reader_" + UUID().uuidString.lowercased().prefix(8)
        try await PostgresTestDatabase.withClients { clients in
            _ = try await clients[0].query("CREATE ROLE \(unescaped: role) LOGIN")
        }
        let started = ContinuousClock.now
        let service = try ServiceProcess(environment: Self.environment(
            database: database.replacingOccurrences(of: "://ulk@", with: "://\(role)@")))
        defer { service.stop() }
        #expect(await service.exitStatus() == 2)
        #expect(ContinuousClock.now - started < .seconds(15))
        let log = await service.finalLog()
        let lines = log.split(separator: "\n")
        let line = try #require(lines.last)
        #expect(lines.count == 1, "\(log)")
        #expect(line.count < 300, "\(line.count) characters: \(line)")
        #expect(line.hasPrefix("link-service: ULK_POSTGRES_URL: "))
        #expect(line.contains("CREATE"))
        #expect(line.contains("schema public"))
        #expect(line.contains("GRANT CREATE ON SCHEMA public TO \(role)"), "\(line)")
        #expect(!log.contains("PSQLError"))
    }

    /// Two replicas with `policy` on a cluster of the test's own (the test stops it), with a 5 s deadline, so one
    /// statement may take 1 s (a quarter of it, at most 1 s).
    static func outageFleet(policy: String) async throws -> (cluster: PrivatePostgresCluster, replicas: [ServiceProcess], ports: [Int]) {
        let cluster = try await PrivatePostgresCluster()
        let environment = Self.environment(
            database: cluster.url, ["ULK_CLAIMS_ON_FAILURE": policy, "ULK_TIMEOUT_SECONDS": "\(outageDeadline)"])
        let replicas = try (0..<2).map { _ in try ServiceProcess(environment: environment) }
        var ports: [Int] = []
        for replica in replicas { ports.append(try await replica.port()) }
        return (cluster, replicas, ports)
    }

    static let outageDeadline = 5.0

    /// Waits until every replica's `/readyz` says the store answers again: the replicas' own clients reconnect.
    static func waitUntilReady(_ ports: [Int]) async throws -> Bool {
        try await PostgresTestDatabase.eventually(within: .seconds(30)) {
            for port in ports where try await Self.probe(port, "/readyz") != (200, "ready\n") { return false }
            return true
        }
    }

    /// After the restart, the same processes share claims again: one burst of a new link across both replicas
    /// sends exactly one upstream request, and every caller gets its destination.
    static func expectClaimsSharedAgain(_ stub: ResponseHandlerStub, ports: [Int], key: String) async throws {
        let answers = try await Self.burst(60, link: stub.url("/pub/acc?_ri_=\(key)").absoluteString, ports: ports)
        #expect(stub.requestCount(for: "/pub/acc?_ri_=\(key)") == 1)
        #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.filter { $0.status != 200 }.prefix(3))")
        #expect(Set(try answers.map { try Self.destination($0.body)["deep"] ?? "" }) == ["example-app://_ri_=\(key)"])
    }

    @Test(.timeLimit(.minutes(2)))
    func withTheDatabaseDownRejectReplicasRefuseWithClaimStoreUnavailableSendNothingAndShareClaimsAgainOnceItIsBack() async throws {
        let stub = try Self.namedLinksStub(delay: 0.2)
        defer { stub.shutdown() }
        let (cluster, replicas, ports) = try await Self.outageFleet(policy: "reject")
        defer { replicas.forEach { $0.stop() }; cluster.stop() }
        for port in ports { #expect(try await Self.probe(port, "/readyz") == (200, "ready\n")) }

        // Down before the burst: the claims themselves fail, not only the publishes. `GET /open` answers the error's
        // status, `POST /resolve` 200 with the error in its body (the OpenAPI contract).
        try await cluster.pgCtl("stop", "-m", "fast", "-w")
        let link = stub.url("/pub/acc?_ri_=down").absoluteString
        async let opened = Self.burst(30, link: link, ports: ports, opening: true)
        async let resolved = Self.burst(30, link: link, ports: ports)
        let (openAnswers, resolveAnswers) = try await (opened, resolved)
        #expect(openAnswers.allSatisfy { $0.status == 503 }, "\(openAnswers.filter { $0.status != 503 }.prefix(3))")
        #expect(resolveAnswers.allSatisfy { $0.status == 200 }, "\(resolveAnswers.filter { $0.status != 200 }.prefix(3))")
        let answers = openAnswers + resolveAnswers
        #expect(answers.count == 60)
        #expect(Set(try answers.map { try Self.destination($0.body) }) == [["deep": "", "web": "", "error": "claimStoreUnavailable"]])
        #expect(answers.allSatisfy { $0.took < .seconds(Self.outageDeadline) }, "slowest: \(answers.map(\.took).max()!)")
        #expect(stub.requests.count == 0)
        for port in ports {
            #expect(try await Self.probe(port, "/readyz") == (503, "claim store unreachable\n"))
            #expect(try await Self.probe(port, "/healthz") == (200, "ok\n"))
            #expect(try await Self.failedClaims(port) > 0)
        }

        // Back up, no restart of the replicas: the refused link was not remembered, and is now sent once.
        try await cluster.pgCtl("start", "-w")
        #expect(try await Self.waitUntilReady(ports), "a replica still reports the store unreachable 30 s after the restart")
        try await Self.expectClaimsSharedAgain(stub, ports: ports, key: "down")
        try await Self.expectClaimsSharedAgain(stub, ports: ports, key: "after")
        #expect(stub.requests.count == 2)
    }

    @Test(.timeLimit(.minutes(2)))
    func withTheDatabaseDownLocalReplicasEachResolveOnceAndShareClaimsAgainOnceItIsBack() async throws {
        let stub = try Self.namedLinksStub(delay: 0.2)
        defer { stub.shutdown() }
        let (cluster, replicas, ports) = try await Self.outageFleet(policy: "local")
        defer { replicas.forEach { $0.stop() }; cluster.stop() }

        try await cluster.pgCtl("stop", "-m", "fast", "-w")
        let answers = try await Self.burst(60, link: stub.url("/pub/acc?_ri_=down").absoluteString, ports: ports)
        // Each replica coalesces its own callers: at most one request per replica, every caller answered normally.
        #expect((1...ports.count).contains(stub.requestCount(for: "/pub/acc?_ri_=down")), "\(stub.requests.count)")
        #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.filter { $0.status != 200 }.prefix(3))")
        #expect(Set(try answers.map { try Self.destination($0.body)["deep"] ?? "" }) == ["example-app://_ri_=down"])
        #expect(answers.allSatisfy { $0.took < .seconds(Self.outageDeadline) }, "slowest: \(answers.map(\.took).max()!)")
        for (port, replica) in zip(ports, replicas) {
            // Still ready, so the load balancer keeps the fleet serving, with a note saying why claims are local.
            #expect(try await Self.probe(port, "/readyz") == (200, "ready (claim store unreachable: resolving with local claims)\n"))
            #expect(try await Self.probe(port, "/healthz") == (200, "ok\n"))
            #expect(try await Self.failedClaims(port) > 0)
            #expect(replica.log.contains("link claimStoreFailed"))
        }

        try await cluster.pgCtl("start", "-w")
        #expect(try await Self.waitUntilReady(ports), "a replica still reports the store unreachable 30 s after the restart")
        try await Self.expectClaimsSharedAgain(stub, ports: ports, key: "after")
    }

    /// One wave of a mid-burst test: each of `keys`' links asked once on every replica at once; each answer with
    /// its link's key.
    static func wave(_ keys: Range<Int>, stub: ResponseHandlerStub, ports: [Int]) async throws -> [(key: Int, status: Int, body: String, took: Duration)] {
        try await withThrowingTaskGroup(of: [(Int, Int, String, Duration)].self) { group in
            for key in keys {
                group.addTask {
                    let answers = try await Self.burst(ports.count, link: stub.url("/pub/acc?_ri_=m\(key)").absoluteString, ports: ports)
                    return answers.map { (key, $0.status, $0.body, $0.took) }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// The database stopped in the middle of a burst of distinct links, each asked on both replicas at once: three
    /// waves claimed while it is up (their upstream requests still at the stub when it stops, so their publishes and
    /// their joiners' polls fail), one wave sent while `pg_ctl stop` runs (claims racing the shutdown), two after
    /// it stopped. Nobody waits past the deadline, each policy does what it documents, and claims are shared again
    /// once the database is back, with no restart.
    @Test(.timeLimit(.minutes(2)), arguments: ["local", "reject"])
    func withTheDatabaseStoppedMidBurstNobodyWaitsPastTheDeadlineAndThePolicyHolds(policy: String) async throws {
        let stub = try Self.namedLinksStub(delay: 1.0)
        defer { stub.shutdown() }
        let (cluster, replicas, ports) = try await Self.outageFleet(policy: policy)
        defer { replicas.forEach { $0.stop() }; cluster.stop() }

        let early = Task { try await Self.wave(0..<30, stub: stub, ports: ports) }
        // One request per link while the database is up: all 30 are at the stub, held for a second.
        #expect(await stub.waitForRequests(30))
        async let stopped: Void = cluster.pgCtl("stop", "-m", "fast", "-w")
        let racing = try await Self.wave(30..<40, stub: stub, ports: ports)
        try await stopped
        let late = try await Self.wave(40..<60, stub: stub, ports: ports)
        let answers = try await early.value + racing + late
        #expect(answers.count == 60 * ports.count)

        let slowest = answers.map(\.took).max()!
        #expect(slowest < .seconds(Self.outageDeadline), "slowest: \(slowest)")
        #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.filter { $0.status != 200 }.prefix(3))")
        let ownDestination = try answers.map { answer -> Bool in
            try Self.destination(answer.body) == ["deep": "example-app://_ri_=m\(answer.key)", "web": "https://www.example.com/_ri_=m\(answer.key)", "error": ""]
        }
        let sent = (0..<60).map { stub.requestCount(for: "/pub/acc?_ri_=m\($0)") }
        let answered = zip(answers, ownDestination).filter(\.1).map(\.0.key)
        print("mid-burst, \(policy): requests per link \(sent); destinations answered, early \(answered.count { $0 < 30 }), racing \(answered.count { (30..<40).contains($0) }), late \(answered.count { $0 >= 40 }); slowest \(slowest)")
        switch policy {
        case "local":
            // Everyone reaches their destination; each replica resolves a link at most once.
            #expect(ownDestination.allSatisfy { $0 }, "\(zip(answers, ownDestination).filter { !$1 }.prefix(3).map(\.0))")
            #expect(sent.allSatisfy { (1...ports.count).contains($0) }, "\(sent)")
            #expect(sent.prefix(30).allSatisfy { $0 >= 1 })
        default:
            // Nothing is sent without a claim: at most one request per link. A caller whose replica made the request
            // gets the destination; every other answer is the store's error; after the stop, nothing is sent.
            #expect(sent.allSatisfy { $0 <= 1 }, "\(sent)")
            #expect(sent.prefix(30).allSatisfy { $0 == 1 }, "\(sent)")
            #expect(sent.suffix(20).allSatisfy { $0 == 0 }, "\(sent)")
            for (answer, isOwn) in zip(answers, ownDestination) where !isOwn {
                #expect(try Self.destination(answer.body)["error"] == "claimStoreUnavailable", "\(answer)")
            }
            for key in 0..<60 where sent[key] == 1 {
                #expect(zip(answers, ownDestination).contains { $0.key == key && $1 }, "link m\(key) was sent, but no caller got its destination")
            }
        }

        try await cluster.pgCtl("start", "-w")
        #expect(try await Self.waitUntilReady(ports), "a replica still reports the store unreachable 30 s after the restart")
        try await Self.expectClaimsSharedAgain(stub, ports: ports, key: "after")
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
