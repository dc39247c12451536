import Foundation
import Synchronization
import Testing
import _LinkKitLocking
@testable import UniversalLinkKit

struct DeadlineSchedulerTests {
    final class Sentinel: Sendable {}

    /// Waits (in real time, generously) until `condition` holds.
    func eventually(_ condition: () -> Bool) async -> Bool {
        let limit = ContinuousClock.now + .seconds(20)
        while !condition() {
            guard ContinuousClock.now < limit else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    @Test func deadlinesFireInTheirOrderAndNeverEarlyWhateverTheOrderTheyWereArmedIn() async {
        let scheduler = DeadlineScheduler()
        let fired = Collector<(Int, ContinuousClock.Instant)>()
        let start = ContinuousClock.now
        // The later one first, so the source must be moved earlier by the second.
        let deadlines = [start + .milliseconds(300), start + .milliseconds(100), start + .milliseconds(200)]
        for (index, deadline) in deadlines.enumerated() {
            _ = scheduler.arm(deadline) { fired.append((index, .now)) }
        }
        #expect(await eventually { fired.all.count == 3 })
        #expect(fired.all.map(\.0) == [1, 2, 0])
        for (index, at) in fired.all { #expect(at >= deadlines[index]) }
        #expect(scheduler.armedCount == 0)
    }

    @Test func aDisarmedDeadlineNeverFiresAndItsHandlerIsReleasedAtOnce() async throws {
        let scheduler = DeadlineScheduler()
        let fired = Tally()
        weak var released: Sentinel?
        let id: UInt64
        do {
            let sentinel = Sentinel()
            released = sentinel
            id = scheduler.arm(.now + .milliseconds(100)) { withExtendedLifetime(sentinel) { fired.add("early") } }
        }
        _ = scheduler.arm(.now + .milliseconds(200)) { fired.add("kept") }
        scheduler.disarm(id)
        #expect(released == nil)
        #expect(await eventually { fired["kept"] == 1 })
        #expect(fired["early"] == 0)
        #expect(scheduler.armedCount == 0)
    }

    @Test func manyFinishedResolutionsLeaveNothingArmedAndLaterDeadlinesStillFire() async {
        let scheduler = DeadlineScheduler()
        let fired = Tally()
        // As a burst of successful resolutions: each arms a far deadline and disarms it soon after.
        for _ in 0..<5_000 {
            let id = scheduler.arm(.now + .seconds(3600)) { fired.add("late") }
            scheduler.disarm(id)
        }
        #expect(scheduler.armedCount == 0)
        _ = scheduler.arm(.now + .milliseconds(50)) { fired.add("due") }
        #expect(await eventually { fired["due"] == 1 })
        #expect(fired["late"] == 0)
    }
}
