import Synchronization
import Testing
import _LinkKitLocking
@testable import UniversalLinkKit

/// One sleeping task per clock runs every deadline armed on it.
struct DeadlineSchedulerTests {
    final class Fired: Sendable {
        private let list = Mutex<[Int]>([])
        func add(_ value: Int) { list.withTrackedLock { $0.append(value) } }
        var all: [Int] { list.withTrackedLock { $0 } }
    }

    @Test func actionsRunInDeadlineOrderOnceTheClockReachesThem() async {
        let clock = ManualClock()
        let scheduler = clock.linkClock.scheduler
        let fired = Fired()
        let done = Waiter<Void>()
        for second in [3, 1, 2] {
            _ = scheduler.schedule(at: clock.now + .seconds(second)) {
                fired.add(second)
                if second == 3 { done.resume(returning: ()) }
            }
        }
        #expect(await clock.wait { $0.sleeperCount == 1 })
        #expect(fired.all.isEmpty)
        clock.advance(by: .seconds(3))
        await done.value
        #expect(fired.all == [1, 2, 3])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aCancelledActionNeverRuns() async {
        let clock = ManualClock()
        let scheduler = clock.linkClock.scheduler
        let fired = Fired()
        let done = Waiter<Void>()
        let cancelled = scheduler.schedule(at: clock.now + .seconds(1)) { fired.add(1) }
        _ = scheduler.schedule(at: clock.now + .seconds(2)) {
            fired.add(2)
            done.resume(returning: ())
        }
        scheduler.cancel(cancelled)
        #expect(scheduler.pendingCount == 1)
        clock.advance(by: .seconds(2))
        await done.value
        #expect(fired.all == [2])
    }

    @Test func oneSleeperServesGrowingDeadlines() async {
        let clock = ManualClock()
        let scheduler = clock.linkClock.scheduler
        var tickets: [DeadlineScheduler.Ticket] = []
        for millisecond in 1...1_000 {
            tickets.append(scheduler.schedule(at: clock.now + .milliseconds(millisecond)) {})
        }
        #expect(await clock.wait { $0.sleeperCount == 1 })
        // Deadlines that only grow never replace the sleeper.
        #expect(clock.cancelledSleeps == 0)
        for ticket in tickets { scheduler.cancel(ticket) }
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anEarlierDeadlineReplacesTheSleeper() async {
        let clock = ManualClock()
        let scheduler = clock.linkClock.scheduler
        let done = Waiter<Void>()
        _ = scheduler.schedule(at: clock.now + .seconds(10)) {}
        #expect(await clock.wait { $0.sleeperCount == 1 })
        _ = scheduler.schedule(at: clock.now + .seconds(1)) { done.resume(returning: ()) }
        #expect(await clock.wait { $0.cancelledSleeps == 1 && $0.sleeperCount == 1 })
        clock.advance(by: .seconds(1))
        await done.value
        #expect(scheduler.pendingCount == 1)
    }

    @Test func aDeadlineAlreadyPassedRunsWithoutTheClockMoving() async {
        let clock = ManualClock()
        let start = clock.now
        let done = Waiter<Void>()
        _ = clock.linkClock.scheduler.schedule(at: start - .seconds(1)) { done.resume(returning: ()) }
        let ran = await done.wait(until: .now + .seconds(60), clock: .continuous)
        guard case .value = ran else {
            Issue.record("the action did not run")
            return
        }
        #expect(clock.now == start)
        #expect(clock.linkClock.scheduler.pendingCount == 0)
    }
}
