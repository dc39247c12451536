import Foundation
import LinkRouting
import UniversalLinkKit

/// Everything a test of a link integration needs, wired in one call the way this package's own tests wire it: a
/// loopback ``ResponseHandlerStub`` serving a link table, a ``StubHostTransport`` sending the branded host's
/// requests to it through the platform's default transport (`CurlTransport` on Linux), a private `NotificationCenter` with a ``NotificationRecorder``, a
/// ``RecordingOpener``, and the `LinkManager`.
///
/// ```swift
/// @Test func productLinksOpenTheProductScreen() async throws {
///     let fixture = try LinkFixture(links: ["/pub/acc?_ri_=p": .init(webLinkUrl: "https://www.example.com/p",
///                                                                   mobileDeepLinkUrl: "example-app://p")])
///     let outcome = try await fixture.manager.resolve(fixture.url("/pub/acc?_ri_=p"))
///     #expect(outcome.resolvedLink?.deepLinkURL == URL(string: "example-app://p"))
///     #expect(fixture.stub.requests.count == 1)
///     await fixture.shutdown()
/// }
/// ```
public final class LinkFixture: Sendable {
    /// The branded host the fixture's links live on: `news.example.com`.
    package static let host = "news.example.com"

    /// The loopback Response Handler.
    public let stub: ResponseHandlerStub
    /// The center the manager posts to (not `.default`, so parallel tests do not see each other's links).
    package let notificationCenter: NotificationCenter
    /// Records every notification, from before the first link.
    public let recorder: NotificationRecorder
    /// Records what the manager hands to its opener.
    public let opener: RecordingOpener
    /// The manager under test.
    public let manager: LinkManager
    /// The transport the manager sends through, released by ``shutdown()``.
    private let transport: StubHostTransport

    /// Wires a fixture.
    ///
    /// - Parameters:
    ///   - links: The stub's link table, keyed by path and query (`"/pub/acc?_ri_=1"`); the demo table by default.
    ///   - configuration: The manager's settings; the branded domain is set to `news.example.com` when none is given.
    ///   - router: The router resolved links go to, if any.
    ///   - clock: The manager's clock.
    /// - Throws: `ResponseHandlerStub.StartError` when the stub cannot listen.
    public init(
        links: [String: ResponseHandlerStub.Link] = ResponseHandlerStub.demoLinks,
        configuration: LinkManager.Configuration = .init(),
        router: LinkRouter? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) throws {
        var configuration = configuration
        if configuration.policy.brandedDomains.isEmpty {
            configuration.policy.brandedDomains = [Self.host]
        }
        stub = try ResponseHandlerStub(links: links)
        notificationCenter = NotificationCenter()
        recorder = NotificationRecorder(center: notificationCenter)
        opener = RecordingOpener()
        transport = StubHostTransport(hosts: [Self.host], stub: stub)
        manager = LinkManager(
            configuration: configuration,
            transport: transport,
            notificationCenter: notificationCenter,
            opener: opener.opener,
            router: router,
            clock: clock
        )
    }

    /// The tracking URL of a row of the link table: `https://news.example.com` followed by `pathAndQuery`.
    ///
    /// - Parameter pathAndQuery: A path with an optional query, for example `"/pub/acc?_ri_=product"`.
    /// - Returns: The URL.
    public func url(_ pathAndQuery: String) -> URL {
        let separator = pathAndQuery.hasPrefix("/") ? "" : "/"
        return URL(string: "https://\(Self.host)\(separator)\(pathAndQuery)")
            ?? URL(string: "https://\(Self.host)/")!
    }

    /// Shuts the manager down (in-flight links finish, every notification is delivered), then its transport and the
    /// stub.
    public func shutdown() async {
        await manager.shutdown(gracePeriod: .seconds(5))
        transport.shutdown()
        recorder.stop()
        stub.shutdown()
    }
}
