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

    @Test(arguments: [
        (Duration.milliseconds(250), "250 ms"), (.seconds(10), "10 s"), (.milliseconds(9_999), "10 s"),
        (.milliseconds(1_500), "1.5 s"), (.nanoseconds(9_999_969_194), "10 s"),
    ])
    func durationsAreShownRounded(_ duration: Duration, _ shown: String) {
        #expect(duration.rounded == shown)
    }
}
