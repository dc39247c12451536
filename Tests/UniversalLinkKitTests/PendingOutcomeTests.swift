import Foundation
import Testing
@testable import UniversalLinkKit

/// One outcome, many waiters, each with its own deadline and cancellation.
struct PendingOutcomeTests {
    static let outcome = LinkOutcome(openedURL: URL("https://www.example.com/p"))

    @Test func everyWaiterGetsTheOutcomeAndOnlyTheFirstCompletionCounts() async {
        let pending = PendingOutcome(deadline: .now + .seconds(60))
        let waiters = (0..<10).map { _ in Task { await pending.value } }
        #expect(pending.complete(Self.outcome))
        #expect(!pending.complete(LinkOutcome()))
        for waiter in waiters { #expect(await waiter.value == Self.outcome) }
        #expect(await pending.value == Self.outcome)
    }

    @Test func aWaiterWithAnEarlierDeadlineGivesUpAloneOnTheInjectedClock() async {
        let clock = ManualClock()
        let pending = PendingOutcome(deadline: clock.now + .seconds(10))
        let impatient = Task { await pending.wait(until: clock.now + .seconds(1), clock: clock.linkClock) }
        let patient = Task { await pending.wait(until: clock.now + .seconds(30), clock: clock.linkClock) }
        // Only the impatient waiter arms a deadline: the patient one's is past the resolution's own.
        #expect(await clock.wait { $0.pendingDeadlines == 1 })
        clock.advance(by: .seconds(1))
        guard case .deadline = await impatient.value else {
            Issue.record("expected the deadline")
            return
        }
        pending.complete(Self.outcome)
        guard case .value(Self.outcome) = await patient.value else {
            Issue.record("expected the outcome")
            return
        }
    }

    @Test func aCancelledWaiterLeavesTheOthersWaiting() async {
        let pending = PendingOutcome(deadline: .now + .seconds(60))
        let cancelled = Task { await pending.wait(until: nil, clock: .continuous) }
        let other = Task { await pending.value }
        cancelled.cancel()
        guard case .cancelled = await cancelled.value else {
            Issue.record("expected cancelled")
            return
        }
        pending.complete(Self.outcome)
        #expect(await other.value == Self.outcome)
    }
}
