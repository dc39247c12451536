import Foundation
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// What a server holds for the clicks it remembers: every click resolved within the duplicate window stays in the
/// registry until the window passes, so its cost is multiplied by traffic times window.
@Suite(.serialized) struct RememberedClickMemoryTests {
    static let clicks = 20_000

    /// A remembered click used to keep its resolution's ended task alive (over 7 KB a click, 146 MB for 20 000
    /// clicks); it keeps its outcome only. Measured about 1 KB a click; other suites running beside this one can
    /// only add to the growth, so the bound leaves room for them.
    ///
    /// Not run under a sanitizer: its shadow memory and quarantine of freed blocks say nothing of ours.
    @Test(.disabled(if: Sanitizer.isActive, "a sanitizer's shadow memory is not ours"))
    func aRememberedClickCostsUnderThreeKilobytes() async throws {
        var configuration = LinkManager.Configuration()
        configuration.duplicateWindow = .seconds(3600)
        configuration.timeout = .seconds(3600)
        // It suspends once, as a real transport does, so the resolution's task is attached to its flight.
        let transport = ClosureTransport { _, _ in
            await Task.yield()
            return TransportResponse(
                statusCode: 200, headerFields: ["Content-Type": "application/json"],
                body: Data(#"{"webLinkUrl":"https://www.example.com/p","mobileDeepLinkUrl":"example-app://p"}"#.utf8))
        }
        let manager = LinkManager(configuration: configuration, transport: transport, notificationCenter: NotificationCenter())
        // One link first, so that one-time costs (the broadcaster's queue, lazy globals) are paid before the reading.
        _ = try await manager.resolve(URL(string: "https://news.example.com/pub/acc?_ri_=warm")!)
        await manager.waitUntilIdle()
        let before = try #require(FaultInjectionSoakTests.residentBytes())
        for serial in 0..<Self.clicks {
            _ = try await manager.resolve(URL(string: "https://news.example.com/pub/acc?_ri_=\(serial)")!)
        }
        await manager.waitUntilIdle()
        let after = try #require(FaultInjectionSoakTests.residentBytes())
        let perClick = (after - before) / Self.clicks
        #expect(perClick < 3 * 1024, "\(perClick) bytes a remembered click")
        await manager.shutdown()
    }
}
