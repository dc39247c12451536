import Foundation
import Testing
@testable import UniversalLinkKit

/// The registry's invariant: one entry per click, in flight until completed, then remembered for the window and
/// forgotten after it, without scanning the table.
struct ActivationRegistryTests {
    static let link = URL("https://news.example.com/pub/acc?_ri_=X")
    let start = ContinuousClock.now

    func resolution(_ url: URL, at now: ContinuousClock.Instant) -> UniversalLinkKit.LinkResolver.Resolution {
        LinkResolver.Resolution(
            url: url, identity: ClickIdentity(url), deadline: Deadline(start: now, timeout: .seconds(10)))
    }

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
        let first = try #require(started(registry.claim(resolution(Self.link, at: start), now: start)))
        let second = try #require(joined(registry.claim(
            resolution(URL("HTTPS://NEWS.example.com/pub/acc?_ri_=X#f"), at: start), now: start)))
        #expect(first === second)
        #expect(registry.inFlight.count == 1)
    }

    @Test func aCompletedClickIsJoinedWithinTheWindowAndForgottenAfter() throws {
        let registry = ActivationRegistry(window: .seconds(2))
        let identity = ClickIdentity(Self.link)
        _ = registry.claim(resolution(Self.link, at: start), now: start)
        registry.complete(identity, now: start + .seconds(1), remember: true)
        #expect(registry.inFlight.isEmpty)
        let justBefore = start + .milliseconds(2_999)
        #expect(joined(registry.claim(resolution(Self.link, at: justBefore), now: justBefore)) != nil)
        let after = start + .seconds(3)
        #expect(started(registry.claim(resolution(Self.link, at: after), now: after)) != nil)
    }

    @Test func anOutcomeNotRememberedIsForgottenAtOnce() throws {
        let registry = ActivationRegistry(window: .seconds(2))
        _ = registry.claim(resolution(Self.link, at: start), now: start)
        registry.complete(ClickIdentity(Self.link), now: start, remember: false)
        #expect(registry.count == 0)
        #expect(started(registry.claim(resolution(Self.link, at: start), now: start)) != nil)
    }

    @Test func completingTwiceOrAClickNeverClaimedChangesNothing() {
        let registry = ActivationRegistry(window: .seconds(2))
        let identity = ClickIdentity(Self.link)
        _ = registry.claim(resolution(Self.link, at: start), now: start)
        registry.complete(identity, now: start, remember: true)
        registry.complete(identity, now: start + .seconds(5), remember: true)
        registry.complete(ClickIdentity(URL("https://news.example.com/pub/acc?_ri_=never")), now: start, remember: true)
        #expect(registry.inFlight.isEmpty)
        #expect(registry.count == 1)
    }

    @Test func aTableOfManyClicksKeepsOnlyThoseWithinTheWindow() {
        let registry = ActivationRegistry(window: .seconds(1))
        for index in 0..<10_000 {
            let url = URL(string: "https://news.example.com/pub/acc?_ri_=\(index)")!
            let now = start + .milliseconds(index)
            _ = registry.claim(resolution(url, at: now), now: now)
            registry.complete(ClickIdentity(url), now: now, remember: true)
        }
        // Only the clicks completed within the last second are remembered.
        #expect(registry.count == 1_000)
    }
}
