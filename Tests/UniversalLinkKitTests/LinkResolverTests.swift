import Foundation
import Testing
@testable import UniversalLinkKit
import UniversalLinkKitTesting

struct LinkResolverTests {
    static let link = URL("https://news.example.com/pub/acc?_ri_=X%2BY&_ei_=a+b&z=%7E")
    static let both = #"{"webLinkUrl":"https://www.example.com/products/1234","mobileDeepLinkUrl":"example-app://products/1234"}"#

    func resolver(_ transport: some LinkTransport, _ configure: (inout LinkManager.Configuration.Resolution) -> Void = { _ in }) -> TestResolver {
        // A long deadline unless a test is about it: under a sanitizer, parallel CPU-heavy suites can stall a
        // resolution for longer than the default 10 s, and the retry is skipped when it would not fit.
        var configuration = LinkManager.Configuration.Resolution(timeout: .seconds(120), retryDelay: .milliseconds(10))
        configure(&configuration)
        return TestResolver(configuration: configuration, transport: transport)
    }

    func failure(_ body: () async throws(LinkError) -> ResolvedLink) async -> LinkError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func sendsOneGETOfTheTrackingURLWithTheResponsysHeadersAndTheQueryUntouched() async throws {
        let transport = ScriptedTransport([{ _ in .json(Self.both) }])
        let link = try await resolver(transport).resolve(Self.link)
        #expect(link.deepLinkURL == URL("example-app://products/1234"))
        #expect(link.webLinkURL == URL("https://www.example.com/products/1234"))
        #expect(link.isPubWeb)
        #expect(link.error == nil)
        let request = try #require(transport.requests.first)
        #expect(transport.count == 1)
        #expect(request.url.absoluteString == "https://news.example.com/pub/acc?_ri_=X%2BY&_ei_=a+b&z=%7E")
        #expect(request.headerFields["Accept"] == "application/json")
        #expect(request.headerFields["User-Agent"] == "ResponsysPubWebResolver (CPU iPhone OS like Mac OS X)")
    }

    @Test(arguments: [
        (#"{"webLinkUrl":"https://www.example.com/a","mobileDeepLinkUrl":null}"#, nil, "https://www.example.com/a"),
        (#"{"webLinkUrl":"https://www.example.com/a","mobileDeepLinkUrl":""}"#, nil, "https://www.example.com/a"),
        (#"{"webLinkUrl":"https://www.example.com/a"}"#, nil, "https://www.example.com/a"),
        (#"{"mobileDeepLinkUrl":"example-app://x","webLinkUrl":null,"extra":[1,{"a":2}]}"#, "example-app://x", nil),
    ] as [(String, String?, String?)])
    func acceptsNullEmptyOrAbsentLinksAndIgnoresUnknownKeys(body: String, deep: String?, web: String?) async throws {
        let link = try await resolver(ScriptedTransport([{ _ in .json(body) }])).resolve(Self.link)
        #expect(link.deepLinkURL?.absoluteString == deep)
        #expect(link.webLinkURL?.absoluteString == web)
        #expect(link.error == nil)
    }

    @Test(arguments: [
        ("", "the body is not JSON (0 bytes)"),
        ("<html>", "the body is not JSON (6 bytes)"),
        ("[1,2]", "expected a JSON object, found an array"),
        (#""https://x""#, "expected a JSON object, found a string"),
        (#"{"webLinkUrl":42}"#, "webLinkUrl: expected a string or null, found a number or boolean"),
        (#"{"webLinkUrl":"https://a.example","mobileDeepLinkUrl":{"u":1}}"#, "mobileDeepLinkUrl: expected a string or null, found an object"),
    ])
    func rejectsAnythingButTheResponseHandlerObjectAsInvalidResponse(body: String, detail: String) async {
        let error = await failure { () async throws(LinkError) in
            try await resolver(ScriptedTransport([{ _ in .json(body) }])).resolve(Self.link)
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains(detail) == true, "\(error?.message ?? "nil")")
    }

    @Test func neitherLinkIsMissingDestination() async {
        let error = await failure { () async throws(LinkError) in
            try await resolver(ScriptedTransport([{ _ in .json(#"{"webLinkUrl":null,"mobileDeepLinkUrl":""}"#) }])).resolve(Self.link)
        }
        #expect(error?.code == .missingDestination)
    }

    @Test(arguments: ["javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,x", "file:///etc/passwd", "vbscript:x", "products/1234"])
    func anUnsafeDeepLinkIsDroppedWhileTheWebLinkIsStillDelivered(deep: String) async throws {
        let body = #"{"webLinkUrl":"https://www.example.com/a","mobileDeepLinkUrl":"\#(deep)"}"#
        let link = try await resolver(ScriptedTransport([{ _ in .json(body) }])).resolve(Self.link)
        #expect(link.deepLinkURL == nil)
        #expect(link.webLinkURL == URL("https://www.example.com/a"))
        #expect(link.error?.code == .unsafeLink)
    }

    @Test(arguments: ["javascript:alert(1)", "ftp://files.example.com/x", "example-app://x", "www.example.com/a", "https://"])
    func aWebLinkThatIsNotAnAbsoluteHTTPURLIsDropped(web: String) async throws {
        let body = #"{"webLinkUrl":"\#(web)","mobileDeepLinkUrl":"example-app://ok"}"#
        let link = try await resolver(ScriptedTransport([{ _ in .json(body) }])).resolve(Self.link)
        #expect(link.webLinkURL == nil)
        #expect(link.deepLinkURL == URL("example-app://ok"))
        #expect(link.error?.code == .unsafeLink)
    }

    @Test func onlyUnsafeLinksIsAnUnsafeLinkError() async {
        let error = await failure { () async throws(LinkError) in
            try await resolver(ScriptedTransport([{ _ in .json(#"{"webLinkUrl":"javascript:x","mobileDeepLinkUrl":"data:x"}"#) }])).resolve(Self.link)
        }
        #expect(error?.code == .unsafeLink)
    }

    @Test func aRefusedHostMakesNoRequest() async {
        let transport = ScriptedTransport()
        let error = await failure { () async throws(LinkError) in
            try await resolver(transport).resolve(URL("https://127.0.0.1/pub/acc"))
        }
        #expect(error?.code == .hostNotAllowed)
        #expect(transport.count == 0)
    }

    @Test(arguments: [502, 503, 504])
    func retriesOnceOnAGatewayStatus(status: Int) async throws {
        let transport = ScriptedTransport([{ _ in .status(status) }, { _ in .json(Self.both) }])
        let link = try await resolver(transport).resolve(Self.link)
        #expect(link.deepLinkURL != nil)
        #expect(transport.count == 2)
    }

    @Test func retriesOnlyOnce() async {
        let transport = ScriptedTransport([{ _ in .status(503) }, { _ in .status(503) }, { _ in .json(Self.both) }])
        let error = await failure { () async throws(LinkError) in try await resolver(transport).resolve(Self.link) }
        #expect(error?.code == .httpStatus)
        #expect(error?.statusCode == 503)
        #expect(transport.count == 2)
    }

    @Test(arguments: [400, 404, 429, 500, 501])
    func neverRetriesOtherStatuses(status: Int) async {
        let transport = ScriptedTransport([{ _ in .status(status) }, { _ in .json(Self.both) }])
        let error = await failure { () async throws(LinkError) in try await resolver(transport).resolve(Self.link) }
        #expect(error?.code == .httpStatus)
        #expect(error?.statusCode == status)
        #expect(transport.count == 1)
    }

    @Test func retriesWhenNoAnswerArrivedButNotAfterAnAnswerStarted() async throws {
        let noAnswer = ScriptedTransport([{ _ in throw TransportError(.noAnswer, detail: "reset") }, { _ in .json(Self.both) }])
        #expect(try await resolver(noAnswer).resolve(Self.link).deepLinkURL != nil)
        #expect(noAnswer.count == 2)

        let broken = ScriptedTransport([{ _ in throw TransportError(.failedAfterAnswer, detail: "closed") }, { _ in .json(Self.both) }])
        let error = await failure { () async throws(LinkError) in try await resolver(broken).resolve(Self.link) }
        #expect(error?.code == .network)
        #expect(broken.count == 1)
    }

    @Test func honoursAShortRetryAfterAndSkipsTheRetryWhenItDoesNotFit() async throws {
        let short = ScriptedTransport([{ _ in .status(503, headers: ["Retry-After": "0"]) }, { _ in .json(Self.both) }])
        #expect(try await resolver(short).resolve(Self.link).deepLinkURL != nil)
        #expect(short.count == 2)

        let long = ScriptedTransport([{ _ in .status(503, headers: ["Retry-After": "3"]) }, { _ in .json(Self.both) }])
        // On a clock that does not move, 3 s never fit in the 2 s left, and the deadline cannot fire first (it did
        // on the real clock, in a TSan run with the tests in parallel on busy cores).
        let frozen = TestResolver(
            configuration: LinkManager.Configuration.Resolution(timeout: .seconds(2), retryDelay: .milliseconds(10)), transport: long,
            clock: ManualClock().linkClock)
        let error = await failure { () async throws(LinkError) in try await frozen.resolve(Self.link) }
        #expect(error?.code == .httpStatus)
        #expect(long.count == 1)
    }

    @Test func theRetryPauseRunsOnTheInjectedClock() async throws {
        let transport = ScriptedTransport([{ _ in .status(503, headers: ["Retry-After": "2"]) }, { _ in .json(Self.both) }])
        let clock = ManualClock()
        let resolver = TestResolver(
            configuration: LinkManager.Configuration.Resolution(timeout: .seconds(10)), transport: transport, clock: clock.linkClock)
        let resolution = Task { try await resolver.resolve(Self.link) }
        await transport.waitForRequests(1)
        // Two sleeps on the manual clock: the deadline's and the pause before the retry.
        #expect(await clock.wait { $0.sleeperCount == 2 })
        clock.advance(by: .seconds(1))
        // The pause (2 s of the injected clock) is still asleep: the retry has not gone out.
        #expect(clock.sleeperCount == 2)
        #expect(transport.count == 1)
        clock.advance(by: .seconds(1))
        await transport.waitForRequests(2)
        #expect(try await resolution.value.deepLinkURL == URL("example-app://products/1234"))
        #expect(transport.count == 2)
    }

    @Test func followsRedirectsThatPassThePolicyUpToThree() async throws {
        let transport = ScriptedTransport([
            { _ in .status(302, headers: ["Location": "https://news.example.com/r1"]) },
            { _ in .status(301, headers: ["Location": "/r2?q=1"]) },
            { _ in .status(307, headers: ["Location": "https://cdn.example.com/r3"]) },
            { _ in .json(Self.both) },
        ])
        let link = try await resolver(transport).resolve(Self.link)
        #expect(link.requestedURL == Self.link)
        #expect(transport.requests.map(\.url.absoluteString) == [
            Self.link.absoluteString, "https://news.example.com/r1", "https://news.example.com/r2?q=1", "https://cdn.example.com/r3",
        ])
        #expect(transport.requests.allSatisfy { $0.headerFields["Accept"] == "application/json" })
    }

    @Test func aFourthRedirectIsAnHTTPStatusError() async {
        let hop: ScriptedTransport.Step = { _ in .status(302, headers: ["Location": "https://news.example.com/again"]) }
        let transport = ScriptedTransport([hop, hop, hop, hop, { _ in .json(Self.both) }])
        let error = await failure { () async throws(LinkError) in try await resolver(transport).resolve(Self.link) }
        #expect(error?.code == .httpStatus)
        #expect(error?.message.contains("more than 3 redirects") == true)
        #expect(transport.count == 4)
    }

    @Test(arguments: ["file:///etc/passwd", "http://news.example.com/x", "https://169.254.169.254/latest", "https://other.example.org/x"])
    func aRedirectThePolicyRefusesIsHostNotAllowedWithoutFollowingIt(location: String) async {
        let transport = ScriptedTransport([{ _ in .status(302, headers: ["Location": location]) }, { _ in .json(Self.both) }])
        let error = await failure { () async throws(LinkError) in
            try await resolver(transport) { $0.policy.brandedDomains = ["news.example.com"] }.resolve(Self.link)
        }
        #expect(error?.code == .hostNotAllowed)
        #expect(transport.count == 1)
    }

    @Test func aBodyOverTheCapIsResponseTooLargeEvenFromATransportThatIgnoresTheCap() async {
        let big = String(repeating: " ", count: 70_000) + Self.both
        let careless = ClosureTransport { _, _ in .json(big) }
        let error = await failure { () async throws(LinkError) in try await resolver(careless).resolve(Self.link) }
        #expect(error?.code == .responseTooLarge)
        let small = await failure { () async throws(LinkError) in
            try await resolver(careless) { $0.maxBodyBytes = 100_000 }.resolve(Self.link)
        }
        #expect(small == nil)
    }

    @Test func aTimeoutOfTheTransportIsATimeoutAndIsNotRetried() async {
        let transport = ScriptedTransport([{ _ in throw TransportError(.timedOut, detail: "-1001") }, { _ in .json(Self.both) }])
        let error = await failure { () async throws(LinkError) in try await resolver(transport).resolve(Self.link) }
        #expect(error?.code == .timeout)
        #expect(transport.count == 1)
    }

    @Test(arguments: [true, false])
    func theDeadlineHoldsEvenWhenTheTransportNeverAnswers(honoursCancellation: Bool) async {
        let resolver = resolver(HangingTransport(honoursCancellation: honoursCancellation)) { $0.timeout = .milliseconds(300) }
        // Measured inside a user-initiated task, as the manager runs resolutions, so that a pool busy with other
        // suites delays the test's own resumption, not the measurement.
        let (error, elapsed) = await Task(priority: .userInitiated) { () -> (LinkError?, Duration) in
            let start = ContinuousClock.now
            do throws(LinkError) {
                _ = try await resolver.resolve(Self.link)
                return (nil, ContinuousClock.now - start)
            } catch {
                return (error, ContinuousClock.now - start)
            }
        }.value
        #expect(error?.code == .timeout)
        // Generous: the bound only has to tell "on time" from "hung" (the hanging transport would take 120 s).
        #expect(elapsed < .seconds(20))
    }

    @Test func theDeadlineCountsFromTheActivation() async {
        let transport = ScriptedTransport([{ _ in .json(Self.both) }])
        let error = await failure { () async throws(LinkError) in
            try await resolver(transport) { $0.timeout = .seconds(1) }.resolve(Self.link, startedAt: .now - .seconds(2))
        }
        #expect(error?.code == .timeout)
    }

    @Test func cancellingTheCallerIsACancelledError() async {
        // The transport says when the request is in flight, so the cancellation lands there, not before it.
        let (inFlight, entered) = AsyncStream.makeStream(of: Void.self)
        let transport = ClosureTransport { _, _ in
            entered.yield()
            try await Task.sleep(for: .seconds(3600))
            return .status(500)
        }
        let task = Task { () async throws(LinkError) -> ResolvedLink in
            try await resolver(transport).resolve(Self.link)
        }
        for await _ in inFlight { break }
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect((error as? LinkError)?.code == .cancelled)
    }
}

struct RetryAfterTests {
    @Test func readsDelaySecondsAndHTTPDates() {
        #expect(ResolutionAttempt.seconds(retryAfter: "2", now: Date()) == 2)
        #expect(ResolutionAttempt.seconds(retryAfter: " 0 ", now: Date()) == 0)
        #expect(ResolutionAttempt.seconds(retryAfter: "soon", now: Date()) == nil)
        #expect(ResolutionAttempt.seconds(retryAfter: "-1", now: Date()) == nil)
        #expect(ResolutionAttempt.seconds(retryAfter: "0000000010", now: Date()) == 10)
        #expect(ResolutionAttempt.seconds(retryAfter: "00000000000000007", now: Date()) == 7)
        #expect(ResolutionAttempt.seconds(retryAfter: "12345678901234567890", now: Date()) == .infinity)
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(ResolutionAttempt.seconds(retryAfter: "Sun, 06 Nov 1994 08:49:40 GMT", now: now) == 3)
        #expect(ResolutionAttempt.seconds(retryAfter: "Sun, 06 Nov 1994 08:49:30 GMT", now: now) == 0)
    }
}
