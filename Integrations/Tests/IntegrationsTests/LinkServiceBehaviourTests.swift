import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InMemoryLogging
import Logging
import NIOCore
import Testing
import UniversalLinkKitTesting

/// What a server needs beyond the contract: one upstream request per click, metrics and logs, a clean shutdown.
struct LinkServiceBehaviourTests {
    @Test func concurrentOpensOfOneLinkMakeOneRequestAndGetTheSameAnswer() async throws {
        let fixture = try ServiceFixture(timeout: .seconds(10))
        // Slow enough that every request arrives while the first resolution is in flight.
        fixture.stub.enqueue([.delay(0.5)], for: "/pub/acc?_ri_=deep")
        let started = ContinuousClock.now
        let answers = try await fixture.application().test(.router) { client in
            try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let response = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=deep"), method: .get)
                        return (response.status, response.headers[.location])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(answers.count == 8)
        #expect(answers.allSatisfy { $0.0 == .found && $0.1 == "example-app://products/1" })
        #expect(fixture.stub.requestCount(for: "/pub/acc?_ri_=deep") == 1)
        // Nobody waited for the 10 s deadline.
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    /// The same over real connections, one per request (AsyncHTTPClient; `POST /resolve`, as it follows no redirect).
    @Test func concurrentResolvesOverHTTPMakeOneRequest() async throws {
        let fixture = try ServiceFixture(timeout: .seconds(10))
        fixture.stub.enqueue([.delay(0.5)], for: "/pub/acc?_ri_=web")
        let body = #"{"url": "\#(fixture.link("/pub/acc?_ri_=web"))"}"#
        let answers = try await fixture.application().test(.ahc(.http)) { client in
            try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?, Bool?).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let response = try await client.execute(uri: "/resolve", method: .post, body: ByteBuffer(string: body))
                        let json = try JSON(response.body)
                        return (response.status, json["webLinkURL"] as? String, json["duplicate"] as? Bool)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(answers.allSatisfy { $0.0 == .ok && $0.1 == "https://www.example.com/products/2" })
        // One caller started the resolution; the seven others joined it.
        #expect(answers.filter { $0.2 == true }.count == 7)
        #expect(fixture.stub.requestCount(for: "/pub/acc?_ri_=web") == 1)
    }

    @Test func aRepeatWithinTheDuplicateWindowAnswersAtOnceWithoutARequest() async throws {
        let fixture = try ServiceFixture(timeout: .seconds(10))
        let body = ByteBuffer(string: #"{"url": "\#(fixture.link("/pub/acc?_ri_=web"))"}"#)
        try await fixture.application().test(.router) { client in
            let first = try await client.execute(uri: "/resolve", method: .post, body: body)
            #expect(try JSON(first.body)["duplicate"] as? Bool == false)
            // Were the repeat sent upstream, it would wait for this until the 10 s deadline.
            fixture.stub.enqueue([.delay(60)], for: "/pub/acc?_ri_=web")
            let started = ContinuousClock.now
            let repeated = try await client.execute(uri: "/resolve", method: .post, body: body)
            #expect(ContinuousClock.now - started < .seconds(5))  // far from the deadline, on a loaded machine too
            let json = try JSON(repeated.body)
            #expect(json["duplicate"] as? Bool == true)
            #expect(json["webLinkURL"] as? String == "https://www.example.com/products/2")
        }
        #expect(fixture.stub.requestCount(for: "/pub/acc?_ri_=web") == 1)
    }

    @Test func metricsCountTheLinksTheirDurationAndTheDuplicates() async throws {
        let fixture = try ServiceFixture()
        try await fixture.application().test(.router) { client in
            for target in ["/pub/acc?_ri_=deep", "/pub/acc?_ri_=deep", "/pub/acc?_ri_=web", "/pub/acc?_ri_=none"] {
                _ = try await client.execute(uri: fixture.openPath(target), method: .get)
            }
            _ = try await client.execute(uri: "/open?url=" + ServiceFixture.encoded("https://www.example.com/"), method: .get)
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            let text = String(buffer: response.body)
            let samples = Self.samples(text)
            #expect(samples[#"ulk_links_total{outcome="resolved"}"#] == 2)
            #expect(samples[#"ulk_links_total{outcome="missingDestination"}"#] == 1)
            #expect(samples[#"ulk_links_total{outcome="notPubWebLink"}"#] == 1)
            #expect(samples["ulk_coalesced_total"] == 1)
            #expect(samples["ulk_resolution_duration_seconds_count"] == 3)
            #expect(text.contains("# TYPE ulk_resolution_duration_seconds histogram"))
        }
    }

    /// The buckets reach past the deadline, so a timeout lands in a bucket of its own rather than only in `+Inf`.
    @Test func theDurationBucketsRunPastTheDeadline() async throws {
        let fixture = try ServiceFixture(timeout: .seconds(5))
        try await fixture.application().test(.router) { client in
            _ = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=deep"), method: .get)
            let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            let bounds = text.split(separator: "\n")
                .filter { $0.hasPrefix("ulk_resolution_duration_seconds_bucket{") }
                .compactMap { line in line.split(separator: "\"").dropFirst().first.flatMap { Double($0) } }
            #expect(bounds.contains(5))
            #expect(bounds.contains { $0 > 5 }, "buckets: \(bounds)")
            #expect((bounds.max() ?? 0) >= 10)
        }
    }

    @Test func metricsCountTheRequestsByStatusAndTheRetries() async throws {
        let fixture = try ServiceFixture()
        fixture.stub.enqueue([.status(503), .normal], for: "/pub/acc?_ri_=web")
        try await fixture.application().test(.router) { client in
            _ = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=deep"), method: .get)
            _ = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=web"), method: .get)
            let samples = Self.samples(String(buffer: try await client.execute(uri: "/metrics", method: .get).body))
            #expect(samples[#"ulk_requests_total{status="200"}"#] == 2)
            #expect(samples[#"ulk_requests_total{status="503"}"#] == 1)
            #expect(samples["ulk_retries_total"] == 1)
        }
        #expect(fixture.stub.requestCount(for: "/pub/acc?_ri_=web") == 2)
    }

    @Test func eachHandledLinkIsOneInfoLineWithItsOutcome() async throws {
        let fixture = try ServiceFixture()
        let handler = InMemoryLogHandler()
        let logger = Logger(label: "test", factory: { _ in handler })
        try await fixture.application(logger: logger).test(.router) { client in
            _ = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=deep"), method: .get)
            _ = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=none"), method: .get)
        }
        let lines = handler.entries.filter { $0.message.description == "link handled" }
        #expect(lines.map(\.level) == [.info, .info])
        #expect(lines.map { $0.metadata["link.outcome"]?.description } == ["resolved", "missingDestination"])
        #expect(lines.map { $0.metadata["http.status"]?.description } == ["302", "404"])
        // The library's own events stay below info.
        #expect(handler.entries.allSatisfy { $0.level == .info ? $0.message.description == "link handled" : $0.level < .info })
    }

    @Test func shutdownLetsTheRequestInFlightFinishThenTheServiceStops() async throws {
        let fixture = try ServiceFixture(timeout: .seconds(10))
        fixture.stub.enqueue([.delay(1)], for: "/pub/acc?_ri_=deep")
        let body = #"{"url": "\#(fixture.link("/pub/acc?_ri_=deep"))"}"#
        let inFlight = try await fixture.application().test(.live) { client in
            let port = try #require(client.port)
            let request = Task { try await Self.post(body, to: "http://127.0.0.1:\(port)/resolve") }
            #expect(await fixture.stub.waitForRequests(1))
            // Returning ends the test client's work: the framework triggers graceful shutdown while the request
            // is still waiting for the Response Handler, and returns once the service group has stopped.
            return request
        }
        let (status, data) = try await inFlight.value
        #expect(status == 200)
        let json = try JSON(ByteBuffer(bytes: data))
        #expect(json["deepLinkURL"] as? String == "example-app://products/1")
    }

    /// `POST` with a client of its own (its own connection), so the test client can finish first.
    static func post(_ body: String, to address: String) async throws -> (Int, Data) {
        let response = try await LoopbackHTTP.send(address, body: Data(body.utf8))
        return (response.status, response.body)
    }

    /// `name{labels} value` lines of a Prometheus exposition, by `name{labels}`.
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            samples[String(line[..<space])] = value
        }
        return samples
    }
}
