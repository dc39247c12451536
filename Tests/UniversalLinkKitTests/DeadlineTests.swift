import Foundation
import Synchronization
import Testing
import _LinkKitLocking
@testable import UniversalLinkKit

/// The deadline mechanism of the general path (any transport) and its timer.
struct DeadlineTests {
    /// Something a timer's handler can hold, to see whether the handler has been released.
    final class Sentinel: Sendable {}

    @Test func aSystemClockTimerFiresAtItsDeadlineAndNotBefore() async {
        let deadline = ContinuousClock.now + .milliseconds(100)
        let armed = Mutex<DeadlineTimer?>(nil)
        let firedAt: ContinuousClock.Instant = await withCheckedContinuation { continuation in
            let timer = DeadlineTimer(at: deadline, clock: .continuous) { continuation.resume(returning: .now) }
            armed.withTrackedLock { $0 = timer }
        }
        armed.withTrackedLock { $0 = nil }
        #expect(firedAt >= deadline)
        // Generous: only "fired" against "never fired" (a loaded machine delays the handler, not the deadline).
        #expect(firedAt - deadline < .seconds(20))
    }

    @Test func aCancelledSystemClockTimerNeverFiresAndReleasesItsHandler() async throws {
        let fired = Tally()
        weak var released: Sentinel?
        do {
            let sentinel = Sentinel()
            released = sentinel
            let timer = DeadlineTimer(at: .now + .milliseconds(200), clock: .continuous) {
                withExtendedLifetime(sentinel) { fired.add("fired") }
            }
            timer.cancel()
        }
        let limit = ContinuousClock.now + .seconds(20)
        while released != nil, ContinuousClock.now < limit {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(released == nil)
        try await Task.sleep(for: .milliseconds(400))
        #expect(fired.total == 0)
    }

    @Test func anInjectedClockDrivesTheTimer() async {
        let clock = ManualClock()
        let fired = Tally()
        let timer = DeadlineTimer(at: clock.now + .seconds(10), clock: clock.linkClock) { fired.add("fired") }
        #expect(await clock.wait { $0.sleeperCount == 1 })
        try? await Task.sleep(for: .milliseconds(50))
        #expect(fired.total == 0)
        clock.advance(by: .seconds(10))
        let limit = ContinuousClock.now + .seconds(20)
        while fired.total == 0, ContinuousClock.now < limit { try? await Task.sleep(for: .milliseconds(5)) }
        #expect(fired.total == 1)
        withExtendedLifetime(timer) {}
    }

    @Test func theTimerIsCancelledWhenTheOperationFinishesFirst() async throws {
        let clock = ManualClock()
        let value = try await withDeadline(clock.now + .seconds(10), clock: clock.linkClock) { 42 }
        #expect(value == 42)
        // The timer's sleep on the injected clock is cancelled, not left to wake at the deadline.
        #expect(await clock.wait { $0.sleeperCount == 0 && $0.cancelledSleeps == 1 })
    }

    @Test func theDeadlineOfAnInjectedClockHoldsAgainstAnOperationThatIgnoresCancellation() async {
        let clock = ManualClock()
        let stop = Mutex(false)
        let task = Task { () -> (Bool, ContinuousClock.Instant) in
            do {
                _ = try await withDeadline(clock.now + .seconds(10), clock: clock.linkClock) {
                    // Ignores cancellation until the test ends it.
                    while !stop.withTrackedLock({ $0 }) { try? await Task.sleep(for: .milliseconds(20)) }
                    return 0
                }
                return (false, .now)
            } catch {
                return (error is DeadlineExceeded, .now)
            }
        }
        #expect(await clock.wait { $0.sleeperCount == 1 })
        let advanced = ContinuousClock.now
        clock.advance(by: .seconds(10))
        let (timedOut, returnedAt) = await task.value
        stop.withTrackedLock { $0 = true }
        #expect(timedOut)
        #expect(returnedAt - advanced < .seconds(20))
    }
}
