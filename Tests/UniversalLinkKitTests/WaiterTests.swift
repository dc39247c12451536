import Testing
@testable import UniversalLinkKit

/// The one waiter: value, deadline or cancellation, exactly once, on the injected clock.
struct WaiterTests {
    @Test func aValueThatCameBeforeTheWaitIsReturnedAtOnce() async {
        let waiter = Waiter<Int>()
        #expect(waiter.resume(returning: 7))
        guard case .value(7) = await waiter.wait(until: nil, clock: .continuous) else {
            Issue.record("expected the value")
            return
        }
    }

    @Test func aValueDuringTheWaitEndsItAndDisarmsTheDeadline() async {
        let clock = ManualClock()
        let waiter = Waiter<String>()
        let waiting = Task { await waiter.wait(until: clock.now + .seconds(10), clock: clock.linkClock) }
        #expect(await clock.wait { $0.pendingDeadlines == 1 })
        #expect(waiter.resume(returning: "done"))
        guard case .value("done") = await waiting.value else {
            Issue.record("expected the value")
            return
        }
        #expect(clock.pendingDeadlines == 0)
    }

    @Test func theDeadlineOnTheInjectedClockEndsTheWait() async {
        let clock = ManualClock()
        let waiter = Waiter<Int>()
        let waiting = Task { await waiter.wait(until: clock.now + .seconds(5), clock: clock.linkClock) }
        #expect(await clock.wait { $0.pendingDeadlines == 1 && $0.sleeperCount == 1 })
        clock.advance(by: .seconds(4))
        #expect(!waiter.hasEnded)
        clock.advance(by: .seconds(1))
        guard case .deadline = await waiting.value else {
            Issue.record("expected the deadline")
            return
        }
        // Ended once: a value that comes later is ignored.
        #expect(!waiter.resume(returning: 1))
    }

    @Test func cancellingTheWaitingTaskEndsTheWait() async {
        let clock = ManualClock()
        let waiter = Waiter<Int>()
        let waiting = Task { await waiter.wait(until: clock.now + .seconds(60), clock: clock.linkClock) }
        #expect(await clock.wait { $0.pendingDeadlines == 1 })
        waiting.cancel()
        guard case .cancelled = await waiting.value else {
            Issue.record("expected cancelled")
            return
        }
        #expect(clock.pendingDeadlines == 0)
    }

    @Test func aTaskCancelledBeforeItWaitsEndsAtOnceWithoutArmingADeadline() async {
        let clock = ManualClock()
        let waiter = Waiter<Int>()
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await waiter.wait(until: clock.now + .seconds(60), clock: clock.linkClock)
        }
        guard case .cancelled = await waiting.value else {
            Issue.record("expected cancelled")
            return
        }
        #expect(clock.pendingDeadlines == 0)
    }

    @Test func aValueWaitIgnoresCancellation() async {
        let waiter = Waiter<Int>()
        let waiting = Task { await waiter.value }
        waiting.cancel()
        waiter.resume(returning: 3)
        #expect(await waiting.value == 3)
    }

    @Test(arguments: 0..<20)
    func racingEndsResumeTheWaiterExactlyOnce(_ round: Int) async {
        let clock = ManualClock()
        let waiter = Waiter<Int>()
        let waiting = Task { await waiter.wait(until: clock.now + .seconds(1), clock: clock.linkClock) }
        // Value, deadline and cancellation race; whichever ends it, the others change nothing.
        async let value: Bool = waiter.resume(returning: round)
        async let deadline: Void = clock.advance(by: .seconds(1))
        waiting.cancel()
        _ = await (value, deadline)
        switch await waiting.value {
        case .value(let received): #expect(received == round)
        case .deadline, .cancelled: #expect(waiter.hasEnded)
        }
        #expect(!waiter.resume(returning: -1))
    }
}
