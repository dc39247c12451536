import Foundation
import Testing
@testable import UniversalLinkKit

/// The registry records flights by click and forgets them once the duplicate window has passed.
struct ActivationRegistryTests {
    static let link = URL("https://news.example.com/pub/acc?_ri_=X")
    let start = ContinuousClock.now

    func started(_ claim: ActivationRegistry.Claim) -> Flight? {
        if case let .started(flight) = claim { return flight }
        return nil
    }

    func joined(_ claim: ActivationRegistry.Claim) -> Flight? {
        if case let .joined(flight) = claim { return flight }
        return nil
    }

    @Test func aSecondClaimOfTheSameClickJoinsTheFirstFlight() throws {
        let registry = ActivationRegistry(window: .seconds(2))
        let identity = ClickIdentity(Self.link)
        let first = try #require(started(registry.claim(identity, url: Self.link, now: start, deadline: start + .seconds(10))))
        let second = try #require(joined(registry.claim(
            ClickIdentity(URL("HTTPS://NEWS.example.com/pub/acc?_ri_=X#f")), url: Self.link, now: start,
            deadline: start + .seconds(10))))
        #expect(first === second)
        #expect(registry.inFlightCount == 1)
        #expect(registry.inFlight.count == 1)
    }

    @Test func aCompletedClickIsJoinedWithinTheWindowAndForgottenAfter() throws {
        let registry = ActivationRegistry(window: .seconds(2))
        let identity = ClickIdentity(Self.link)
        _ = registry.claim(identity, url: Self.link, now: start, deadline: start + .seconds(10))
        registry.complete(identity, now: start + .seconds(1))
        #expect(registry.inFlightCount == 0)
        #expect(joined(registry.claim(identity, url: Self.link, now: start + .milliseconds(2_999), deadline: start + .seconds(20))) != nil)
        #expect(started(registry.claim(identity, url: Self.link, now: start + .seconds(3), deadline: start + .seconds(20))) != nil)
    }

    @Test func completingTwiceCountsOnce() {
        let registry = ActivationRegistry(window: .seconds(2))
        let identity = ClickIdentity(Self.link)
        _ = registry.claim(identity, url: Self.link, now: start, deadline: start + .seconds(10))
        registry.complete(identity, now: start)
        registry.complete(identity, now: start)
        registry.complete(ClickIdentity(URL("https://news.example.com/pub/acc?_ri_=never")), now: start)
        #expect(registry.inFlightCount == 0)
    }

    @Test func tenThousandClicksLeaveNothingOnceTheirWindowsPassed() {
        let registry = ActivationRegistry(window: .seconds(1))
        for index in 0..<10_000 {
            let url = URL(string: "https://news.example.com/pub/acc?_ri_=\(index)")!
            let now = start + .milliseconds(index)
            _ = registry.claim(ClickIdentity(url), url: url, now: now, deadline: now + .seconds(10))
            registry.complete(ClickIdentity(url), now: now)
        }
        // Only the clicks completed within the last second are remembered.
        #expect(registry.count <= 1_001)
    }
}
