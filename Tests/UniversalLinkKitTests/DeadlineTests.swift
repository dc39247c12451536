import Testing
@testable import UniversalLinkKit

/// One deadline, computed once where a link enters.
struct DeadlineTests {
    let start = ContinuousClock.now

    @Test func theConfiguredTimeoutAppliesWithoutAnEarlierLimit() {
        let deadline = Deadline(start: start, timeout: .seconds(10))
        #expect(deadline.instant == start + .seconds(10))
        #expect(deadline.allowed == .seconds(10))
        #expect(Deadline(start: start, timeout: .seconds(10), limit: start + .seconds(30)).instant == start + .seconds(10))
    }

    @Test func anEarlierLimitOfTheCallersWins() {
        let deadline = Deadline(start: start, timeout: .seconds(10), limit: start + .seconds(2))
        #expect(deadline.instant == start + .seconds(2))
        #expect(deadline.allowed == .seconds(2))
    }
}
