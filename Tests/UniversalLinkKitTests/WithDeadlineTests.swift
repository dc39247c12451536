import Testing
@testable import UniversalLinkKit

/// `withDeadline` and `startWithDeadline`: the operation's result, or the deadline, or the cancellation, exactly once.
struct WithDeadlineTests {
    @Test func theOperationsResultComesBackBeforeTheDeadline() async throws {
        let value = try await withDeadline(.now + .seconds(60), clock: .continuous) { 42 }
        #expect(value == 42)
    }

    @Test func manyConcurrentCallsOnTheSystemClockEachGetTheirResult() async throws {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await withDeadline(.now + .seconds(60), clock: .continuous) {
                        try await Task.sleep(for: .milliseconds(index % 5))
                        return index
                    }
                }
            }
            var sum = 0
            for try await value in group { sum += value }
            #expect(sum == (0..<200).reduce(0, +))
        }
    }

    @Test func anOperationThatIgnoresCancellationStillEndsAtTheDeadline() async {
        let clock = ManualClock()
        let gate = Waiter<Void>()
        let call = Task {
            try await withDeadline(clock.now + .seconds(5), clock: clock.linkClock) {
                await gate.value  // never opened before the deadline, and deaf to cancellation
                return 1
            }
        }
        #expect(await clock.wait { $0.pendingDeadlines == 1 })
        clock.advance(by: .seconds(5))
        await #expect(throws: DeadlineExceeded.self) { try await call.value }
        gate.resume(returning: ())
    }

    @Test func cancellingTheCallerEndsTheCallAtOnce() async {
        let clock = ManualClock()
        let call = Task {
            try await withDeadline(clock.now + .seconds(5), clock: clock.linkClock) {
                try await Task.sleep(for: .seconds(3600))
                return 1
            }
        }
        #expect(await clock.wait { $0.pendingDeadlines == 1 })
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(clock.pendingDeadlines == 0)
    }

    @Test func cancellingTheWorkEndsItAtOnceAndItsLateResultIsDropped() async {
        let clock = ManualClock()
        let gate = Waiter<Void>()
        let ends = Collector<String>()
        let ended = Waiter<Void>()
        let work = startWithDeadline(clock.now + .seconds(5), clock: clock.linkClock) {
            await gate.value  // deaf to cancellation
            return 1
        } end: { end in
            switch end {
            case .value: ends.append("value")
            case .deadline: ends.append("deadline")
            case .cancelled: ends.append("cancelled")
            }
            ended.resume(returning: ())
        }
        #expect(await clock.wait { $0.pendingDeadlines == 1 })
        work.cancel()
        await ended.value
        #expect(clock.pendingDeadlines == 0)
        // The operation returns after its end: nothing more is told.
        gate.resume(returning: ())
        await work.value
        #expect(ends.all == ["cancelled"])
    }

    @Test func anOperationThatEndsBeforeItsFirstSuspensionArmsNoDeadline() async {
        let clock = ManualClock()
        let ends = Collector<Int>()
        let work = startWithDeadline(clock.now + .seconds(5), clock: clock.linkClock) { 42 } end: { end in
            if case let .value(.success(value)) = end { ends.append(value) }
        }
        // The operation ran on this thread before `startWithDeadline` returned.
        #expect(ends.all == [42])
        #expect(clock.pendingDeadlines == 0)
        await work.value
    }
}
