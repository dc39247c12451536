import Testing
@testable import UniversalLinkKit

/// The single retry as a value.
struct RetryBudgetTests {
    let now = ContinuousClock.now

    @Test func theRetryIsSpentOnceWithTheConfiguredDelay() {
        var budget = RetryBudget(delay: .milliseconds(200), maxRetryAfter: .seconds(5))
        #expect(budget.spend(retryAfter: nil, now: now, deadline: now + .seconds(10)) == .milliseconds(200))
        #expect(!budget.isAvailable)
        #expect(budget.spend(retryAfter: nil, now: now, deadline: now + .seconds(10)) == nil)
    }

    @Test func aRetryAfterUnderTheCapIsHonouredAndOneOverItMeansNoRetry() {
        var honoured = RetryBudget(delay: .milliseconds(200), maxRetryAfter: .seconds(5))
        #expect(honoured.spend(retryAfter: "2", now: now, deadline: now + .seconds(10)) == .seconds(2))
        var refused = RetryBudget(delay: .milliseconds(200), maxRetryAfter: .seconds(5))
        #expect(refused.spend(retryAfter: "6", now: now, deadline: now + .seconds(60)) == nil)
        #expect(refused.isAvailable)
    }

    @Test func aRetryThatWouldNotFitBeforeTheDeadlineIsNotSpent() {
        var budget = RetryBudget(delay: .milliseconds(200), maxRetryAfter: .seconds(5))
        // The pause plus 50 ms for the request itself must come before the deadline.
        #expect(budget.spend(retryAfter: nil, now: now, deadline: now + .milliseconds(250)) == nil)
        #expect(budget.spend(retryAfter: nil, now: now, deadline: now + .milliseconds(251)) == .milliseconds(200))
    }

    @Test func onlyBadGatewayUnavailableAndGatewayTimeoutAreRetried() {
        #expect([502, 503, 504].allSatisfy(RetryBudget.isRetryable))
        #expect(![500, 501, 429, 404, 200].contains(where: RetryBudget.isRetryable))
    }
}
