import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import UniversalLinkKitHummingbird
import UniversalLinkKitService
import NIOCore
import Testing
import UniversalLinkKitTesting

/// `link-service`'s HTTP contract, against the loopback Response Handler through the real transport.
struct LinkServiceContractTests {
    @Test func openRedirectsToTheDeepLink() async throws {
        let fixture = try ServiceFixture()
        try await fixture.application().test(.live) { client in
            let response = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=deep"), method: .get)
            #expect(response.status == .found)
            #expect(response.headers[.location] == "example-app://products/1")
        }
        #expect(fixture.stub.requestCount(for: "/pub/acc?_ri_=deep") == 1)
    }

    @Test func openFallsBackToTheWebLink() async throws {
        let fixture = try ServiceFixture()
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=web"), method: .get)
            #expect(response.status == .found)
            #expect(response.headers[.location] == "https://www.example.com/products/2")
        }
    }

    @Test func aURLThatIsNotAPubWebLinkIsABadRequestAndRequestsNothing() async throws {
        let fixture = try ServiceFixture()
        let requested = fixture.link("/account/delete")
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/open?url=" + ServiceFixture.encoded(requested), method: .get)
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/json")
            let body = try JSON(response.body)
            #expect(body["requestedURL"] as? String == requested)
            let error = try #require(body["error"] as? [String: Any])
            #expect(error["code"] as? String == "notPubWebLink")
            #expect((error["message"] as? String)?.isEmpty == false)
            #expect(Set(body.keys) == ["requestedURL", "error"])
        }
        #expect(fixture.stub.requests.count == 0)
    }

    @Test func openWithoutAURLIsABadRequest() async throws {
        let fixture = try ServiceFixture()
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/open", method: .get)
            #expect(response.status == .badRequest)
            let error = try #require(try JSON(response.body)["error"] as? [String: Any])
            #expect(error["code"] as? String == "invalidRequest")
        }
    }

    @Test func aHostOutsideTheBrandedDomainsIsForbidden() async throws {
        let fixture = try ServiceFixture(brandedDomains: ["news.example.com"])
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=deep"), method: .get)
            #expect(response.status == .forbidden)
            #expect(try errorCode(response) == "hostNotAllowed")
        }
        #expect(fixture.stub.requests.count == 0)
    }

    @Test func aLinkWithoutDestinationIsNotFound() async throws {
        let fixture = try ServiceFixture()
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=none"), method: .get)
            #expect(response.status == .notFound)
            #expect(try errorCode(response) == "missingDestination")
        }
    }

    @Test func aSilentResponseHandlerIsAGatewayTimeoutAtTheDeadline() async throws {
        let fixture = try ServiceFixture(timeout: .milliseconds(500))
        fixture.stub.setDefaultBehavior(.noResponse)
        let started = ContinuousClock.now
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=deep"), method: .get)
            #expect(response.status == .gatewayTimeout)
            #expect(try errorCode(response) == "timeout")
        }
        #expect(ContinuousClock.now - started < .seconds(4))
    }

    /// What the Response Handler did wrong is the gateway's failure: 502, with the library's code.
    @Test(arguments: [
        ("network", [Behavior.resetConnection, .resetConnection]),
        ("httpStatus", [Behavior.status(500)]),
        ("invalidResponse", [Behavior.json("not json")]),
        ("responseTooLarge", [Behavior.hugeBody(bytes: 1_000_000)]),
        ("unsafeLink", [Behavior.json(#"{"webLinkUrl": "ftp://www.example.com/", "mobileDeepLinkUrl": "javascript:alert(1)"}"#)]),
    ])
    func aFailingResponseHandlerIsABadGateway(code: String, behaviors: [Behavior]) async throws {
        let fixture = try ServiceFixture()
        fixture.stub.enqueue(behaviors, for: "/pub/acc")
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: fixture.openPath("/pub/acc?_ri_=deep"), method: .get)
            #expect(response.status == .badGateway)
            #expect(try errorCode(response) == code)
        }
    }

    @Test func resolveAnswersWithTheWholeResultAsJSON() async throws {
        let fixture = try ServiceFixture()
        let requested = fixture.link("/pub/acc?_ri_=deep")
        try await fixture.application().test(.live) { client in
            let response = try await client.execute(
                uri: "/resolve", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"url": "\#(requested)"}"#)
            )
            #expect(response.status == .ok)
            let body = try JSON(response.body)
            #expect(Set(body.keys) == ["requestedURL", "deepLinkURL", "webLinkURL", "isPubWeb", "duplicate", "route", "error"])
            #expect(body["requestedURL"] as? String == requested)
            #expect(body["deepLinkURL"] as? String == "example-app://products/1")
            #expect(body["webLinkURL"] as? String == "https://www.example.com/products/1")
            #expect(body["isPubWeb"] as? Bool == true)
            #expect(body["duplicate"] as? Bool == false)
            #expect(body["route"] is NSNull)
            #expect(body["error"] is NSNull)
        }
    }

    @Test func resolveReportsNullLinksAndTheErrorWithStatus200() async throws {
        let fixture = try ServiceFixture()
        let requested = fixture.link("/pub/acc?_ri_=none")
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(
                uri: "/resolve", method: .post, body: ByteBuffer(string: #"{"url": "\#(requested)"}"#))
            #expect(response.status == .ok)
            let body = try JSON(response.body)
            #expect(body["deepLinkURL"] is NSNull)
            #expect(body["webLinkURL"] is NSNull)
            let error = try #require(body["error"] as? [String: Any])
            #expect(error["code"] as? String == "missingDestination")
        }
    }

    @Test func resolveOfAURLThatIsNotAPubWebLinkSaysSo() async throws {
        let fixture = try ServiceFixture()
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(
                uri: "/resolve", method: .post, body: ByteBuffer(string: #"{"url": "https://www.example.com/about"}"#))
            #expect(response.status == .ok)
            let body = try JSON(response.body)
            #expect(body["isPubWeb"] as? Bool == false)
            #expect((body["error"] as? [String: Any])?["code"] as? String == "notPubWebLink")
        }
    }

    @Test func resolveWithoutAURLObjectIsABadRequest() async throws {
        let fixture = try ServiceFixture()
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/resolve", method: .post, body: ByteBuffer(string: "[1]"))
            #expect(response.status == .badRequest)
            #expect((try JSON(response.body)["error"] as? [String: Any])?["code"] as? String == "invalidRequest")
        }
    }

    @Test func resolveReportsTheRouteTheRoutesFileMatched() async throws {
        var fixture = try ServiceFixture()
        let table = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString).json")
        try Data(#"{"namespaces": [{"scheme": "example-app", "routes": [{"pattern": "/products/:id"}]}]}"#.utf8).write(to: table)
        defer { try? FileManager.default.removeItem(at: table) }
        fixture.configuration.routesFile = table.path
        let requested = fixture.link("/pub/acc?_ri_=deep")
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(
                uri: "/resolve", method: .post, body: ByteBuffer(string: #"{"url": "\#(requested)"}"#))
            let route = try #require(try JSON(response.body)["route"] as? [String: Any])
            #expect(route["pattern"] as? String == "/products/:id")
            #expect(route["parameters"] as? [String: String] == ["id": "1"])
        }
    }

    @Test func anUnreadableRoutesFileIsAConfigurationError() throws {
        var fixture = try ServiceFixture()
        fixture.configuration.routesFile = "/nonexistent/routes.json"
        #expect {
            try fixture.application()
        } throws: { error in
            (error as? LinkServiceConfiguration.Error)?.variable == "ULK_ROUTES_FILE"
        }
    }

    /// A body over the limit is the documented 400 JSON, not a bare status with an empty body.
    @Test func resolveWithABodyOver64KiBIsABadRequestWithTheJSONError() async throws {
        let fixture = try ServiceFixture()
        let body = #"{"url": "\#(fixture.link("/pub/acc?_ri_=deep"))", "padding": "\#(String(repeating: "a", count: 70_000))"}"#
        try await fixture.application().test(.live) { client in
            let response = try await client.execute(uri: "/resolve", method: .post, body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/json")
            let error = try #require(try JSON(response.body)["error"] as? [String: Any])
            #expect(error["code"] as? String == "invalidRequest")
            #expect((error["message"] as? String)?.contains("65536 bytes") == true)
        }
        #expect(fixture.stub.requests.count == 0)
    }

    /// A port no TCP connection can have is the caller's mistake (400), not the Response Handler's failure (502).
    @Test func aLinkWithAPortOver65535IsABadRequestAndRequestsNothing() async throws {
        let fixture = try ServiceFixture()
        try await fixture.application().test(.router) { client in
            let open = try await client.execute(
                uri: "/open?url=" + ServiceFixture.encoded("http://127.0.0.1:84467/pub/acc?_ri_=deep"), method: .get)
            #expect(open.status == .badRequest)
            #expect(try errorCode(open) == "invalidRequest")
            let resolve = try await client.execute(
                uri: "/resolve", method: .post, body: ByteBuffer(string: #"{"url": "http://127.0.0.1:84467/pub/acc?_ri_=deep"}"#))
            #expect(resolve.status == .badRequest)
            #expect(try errorCode(resolve) == "invalidRequest")
        }
        #expect(fixture.stub.requests.count == 0)
    }

    @Test func healthzAnswers200() async throws {
        let fixture = try ServiceFixture()
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/healthz", method: .get)
            #expect(response.status == .ok)
        }
    }
}

/// The JSON object of a response body.
func JSON(_ body: ByteBuffer) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView))
    return try #require(object as? [String: Any])
}

/// The `error.code` of a JSON error body.
func errorCode(_ response: TestResponse) throws -> String? {
    (try JSON(response.body)["error"] as? [String: Any])?["code"] as? String
}
