import Foundation
import Synchronization
import Testing
import _LinkKitLocking
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// The real path: URLSession (FoundationNetworking and libcurl on Linux) against the loopback stub.
struct URLSessionIntegrationTests {
    static let product = ResponseHandlerStub.Link(
        webLinkUrl: "https://www.example.com/products/1234", mobileDeepLinkUrl: "example-app://products/1234")

    struct Fixture {
        let stub: ResponseHandlerStub
        let center = NotificationCenter()
        let recorder: NotificationRecorder
        let manager: LinkManager

        init(links: [String: ResponseHandlerStub.Link] = ["/pub/acc": URLSessionIntegrationTests.product],
             configure: (inout LinkManager.Configuration) -> Void = { _ in }) throws {
            stub = try ResponseHandlerStub(links: links)
            var configuration = LinkManager.Configuration()
            configuration.policy = ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true)
            configuration.resolution.retryDelay = .milliseconds(20)
            // Tests that are not about the deadline must not trip over it when a loaded machine stalls them.
            configuration.timeout = .seconds(60)
            configure(&configuration)
            recorder = NotificationRecorder(center: center)
            manager = LinkManager(configuration: configuration, notificationCenter: center)
        }

        /// Activates a link and returns its outcome once its notification was delivered too.
        func activate(_ pathAndQuery: String) async -> LinkOutcome {
            let outcome = await manager.handle(UserActivity(browsingWeb: stub.url(pathAndQuery))).outcome
            await manager.waitUntilIdle()
            return outcome
        }
    }

    @Test func resolvesThroughURLSessionWithTheExactRequestTheResponseHandlerExpects() async throws {
        let fixture = try Fixture()
        let target = "/pub/acc?_ri_=X%2BY%3D&_ei_=a+b&z=%7E&empty=&flag&u=%E2%9C%93"
        let outcome = await fixture.activate(target)
        let link = try #require(outcome.resolvedLink)
        #expect(link.error == nil)
        #expect(link.deepLinkURL == URL("example-app://products/1234"))
        #expect(link.webLinkURL == URL("https://www.example.com/products/1234"))
        let request = try #require(fixture.stub.requests.first)
        #expect(fixture.stub.requests.count == 1)
        #expect(request.method == "GET")
        #expect(request.target == target)
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("User-Agent") == "ResponsysPubWebResolver (CPU iPhone OS like Mac OS X)")
        #expect(fixture.recorder.links == [link])
    }

    @Test func sendsNoCookiesAndCachesNothingAcrossResolutions() async throws {
        let fixture = try Fixture { $0.duplicateWindow = .zero }
        fixture.stub.enqueue([.status(200, headers: [("Content-Type", "application/json"), ("Set-Cookie", "session=1; Path=/"),
                                                     ("Cache-Control", "max-age=3600")],
                                      body: #"{"webLinkUrl":"https://www.example.com/a"}"#)], for: "/pub/acc")
        _ = await fixture.activate("/pub/acc?_ri_=1")
        _ = await fixture.activate("/pub/acc?_ri_=1")
        #expect(fixture.stub.requests.count == 2)
        #expect(fixture.stub.requests.allSatisfy { $0.header("Cookie") == nil })
    }

    @Test func reusesOneSessionAndItsConnectionForSuccessiveLinks() async throws {
        let fixture = try Fixture()
        for n in 0..<5 { _ = await fixture.activate("/pub/acc?_ri_=\(n)") }
        #expect(fixture.stub.requests.count == 5)
        #expect(fixture.stub.connectionCount == 1)
    }

    @Test func aServerThatNeverAnswersTimesOutAtTheDeadline() async throws {
        let fixture = try Fixture { $0.timeout = .milliseconds(800) }
        fixture.stub.setDefaultBehavior(.noResponse)
        let delivered = DeliveryClock(center: fixture.center)
        let start = ContinuousClock.now
        let outcome = await fixture.activate("/pub/acc?_ri_=silent")
        #expect(outcome.resolvedLink?.error?.code == .timeout)
        // When the notification was delivered, not when this test resumed (a busy pool may delay the latter).
        // Without the library's deadline the 30 s session backstop would fire.
        #expect(try #require(delivered.first) - start < .seconds(20))
        #expect(fixture.recorder.count == 1)
        fixture.stub.shutdown()
    }

    @Test func aServerThatTricklesBytesTimesOutAtTheDeadline() async throws {
        let fixture = try Fixture { $0.timeout = .milliseconds(800) }
        fixture.stub.setDefaultBehavior(.trickle(bytesPerChunk: 1, interval: 0.1))
        let delivered = DeliveryClock(center: fixture.center)
        let start = ContinuousClock.now
        let outcome = await fixture.activate("/pub/acc?_ri_=slow")
        #expect(outcome.resolvedLink?.error?.code == .timeout)
        // When the notification was delivered, not when this test resumed (a busy pool may delay the latter).
        // Without the library's deadline the 30 s session backstop would fire.
        #expect(try #require(delivered.first) - start < .seconds(20))
        fixture.stub.shutdown()
    }

    @Test func aHugeBodyIsRefusedWhileReceiving() async throws {
        let fixture = try Fixture()
        fixture.stub.setDefaultBehavior(.hugeBody(bytes: 20 * 1024 * 1024))
        let outcome = await fixture.activate("/pub/acc?_ri_=huge")
        #expect(outcome.resolvedLink?.error?.code == .responseTooLarge)
        fixture.stub.shutdown()
    }

    @Test func aGatewayErrorIsRetriedOnce() async throws {
        let fixture = try Fixture()
        fixture.stub.enqueue([.status(503, headers: [("Retry-After", "0")])], for: "/pub/acc")
        let outcome = await fixture.activate("/pub/acc?_ri_=busy")
        #expect(outcome.resolvedLink?.error == nil)
        #expect(outcome.resolvedLink?.deepLinkURL == URL("example-app://products/1234"))
        #expect(fixture.stub.requests.count == 2)
    }

    @Test func aConnectionDroppedBeforeAnyAnswerIsRetried() async throws {
        let fixture = try Fixture()
        fixture.stub.enqueue([.resetConnection], for: "/pub/acc")
        let outcome = await fixture.activate("/pub/acc?_ri_=reset")
        #expect(outcome.resolvedLink?.error == nil)
        #expect(fixture.stub.requests.count == 2)
    }

    @Test func aConnectionDroppedAfterTheAnswerStartedIsANetworkErrorWithoutRetry() async throws {
        let fixture = try Fixture()
        fixture.stub.enqueue([.dropAfterHeaders], for: "/pub/acc")
        let outcome = await fixture.activate("/pub/acc?_ri_=half")
        #expect(outcome.resolvedLink?.error?.code == .network)
        #expect(fixture.stub.requests.count == 1)
    }

    @Test func otherStatusesAreNotRetried() async throws {
        let fixture = try Fixture()
        fixture.stub.enqueue([.status(500)], for: "/pub/acc")
        let outcome = await fixture.activate("/pub/acc?_ri_=broken")
        #expect(outcome.resolvedLink?.error?.code == .httpStatus)
        #expect(outcome.resolvedLink?.error?.statusCode == 500)
        #expect(fixture.stub.requests.count == 1)
    }

    @Test func malformedJSONIsAnInvalidResponse() async throws {
        let fixture = try Fixture()
        fixture.stub.enqueue([.json(#"{"webLinkUrl": "https://www.example.com/a""#)], for: "/pub/acc")
        let outcome = await fixture.activate("/pub/acc?_ri_=bad")
        #expect(outcome.resolvedLink?.error?.code == .invalidResponse)
    }

    @Test func redirectsAreFollowedByTheResolverNotByURLSession() async throws {
        let fixture = try Fixture(links: ["/final": Self.product])
        fixture.stub.enqueue([.redirect(to: fixture.stub.url("/final").absoluteString)], for: "/pub/acc")
        let outcome = await fixture.activate("/pub/acc?_ri_=moved")
        #expect(outcome.resolvedLink?.deepLinkURL == URL("example-app://products/1234"))
        #expect(fixture.stub.requests.map(\.path) == ["/pub/acc", "/final"])
        #expect(fixture.stub.requests.last?.header("Accept") == "application/json")
    }

    @Test(arguments: ["file:///etc/passwd", "https://169.254.169.254/latest/meta-data", "ftp://files.example.com/x"])
    func aRedirectToAURLThePolicyRefusesIsNotFollowed(location: String) async throws {
        let fixture = try Fixture { $0.policy.allowsLocalHosts = true; $0.policy.brandedDomains = ["127.0.0.1"] }
        fixture.stub.enqueue([.redirect(to: location)], for: "/pub/acc")
        let outcome = await fixture.activate("/pub/acc?_ri_=evil")
        #expect(outcome.resolvedLink?.error?.code == .hostNotAllowed)
        #expect(fixture.stub.requests.count == 1)
    }

    @Test func aDuplicateActivationMakesNoSecondRequest() async throws {
        let fixture = try Fixture()
        fixture.stub.setDefaultBehavior(.delay(0.2))
        let first = fixture.manager.handle(UserActivity(browsingWeb: fixture.stub.url("/pub/acc?_ri_=once")))
        let second = fixture.manager.handle(UserActivity(browsingWeb: fixture.stub.url("/pub/acc?_ri_=once")))
        #expect(second.isDuplicate)
        _ = await first.outcome
        _ = await second.outcome
        await fixture.manager.waitUntilIdle()
        #expect(fixture.stub.requests.count == 1)
        #expect(fixture.recorder.count == 1)
    }

    @Test func aBurstOfFortySlowLinksIsResolvedConcurrently() async throws {
        let fixture = try Fixture()
        fixture.stub.setDefaultBehavior(.delay(0.4))
        let handles = (0..<40).map { fixture.manager.handle(UserActivity(browsingWeb: fixture.stub.url("/pub/acc?_ri_=\($0)"))) }
        for handle in handles { _ = await handle.outcome }
        await fixture.manager.waitUntilIdle()
        #expect(fixture.recorder.count == 40)
        #expect(fixture.recorder.links.allSatisfy { $0.error == nil })
        // Each request holds the server for 0.4 s: count how many were being served at the busiest moment.
        let arrivals = fixture.stub.requests.map(\.receivedAt.timeIntervalSinceReferenceDate).sorted()
        let peak = arrivals.indices.map { i in arrivals[i...].prefix { $0 < arrivals[i] + 0.4 }.count }.max() ?? 0
        #expect(peak >= 8)
    }

    @Test func brandedHostsReachTheStubUnderTheDefaultPolicy() async throws {
        let stub = try ResponseHandlerStub(links: ResponseHandlerStub.demoLinks)
        let center = NotificationCenter()
        var configuration = LinkManager.Configuration()
        configuration.policy.brandedDomains = ["news.example.com"]
        let manager = LinkManager(configuration: configuration, transport: StubHostTransport(hosts: ["news.example.com"], stub: stub, transport: URLSessionTransport()),
                                  notificationCenter: center)
        let outcome = await manager.handle(UserActivity(browsingWeb: URL("https://news.example.com/pub/acc?_ri_=web-only"))).outcome
        #expect(outcome.resolvedLink?.webLinkURL == URL("https://www.example.com/sale"))
        #expect(outcome.resolvedLink?.deepLinkURL == nil)
        #expect(stub.requests.map(\.target) == ["/pub/acc?_ri_=web-only"])
    }
}

/// Records when each resolution notification was delivered.
final class DeliveryClock: Sendable {
    private final class Times: Sendable { let list = Mutex<[ContinuousClock.Instant]>([]) }
    private let times = Times()
    nonisolated(unsafe) private let token: any NSObjectProtocol
    private let center: NotificationCenter

    init(center: NotificationCenter) {
        self.center = center
        let times = self.times
        token = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { _ in
            times.list.withTrackedLock { $0.append(ContinuousClock.now) }
        }
    }

    deinit { center.removeObserver(token) }

    var first: ContinuousClock.Instant? { times.list.withTrackedLock { $0.first } }
}
