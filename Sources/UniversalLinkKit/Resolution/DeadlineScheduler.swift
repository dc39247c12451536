import Synchronization
internal import _LinkKitLocking

/// Runs actions at deadlines on one clock, with a single sleeping task for all of them: the timer behind every
/// ``Waiter`` and every resolution deadline of the package.
///
/// A deadline is an entry in a min-heap, and one task sleeps until the earliest entry: an injected clock then drives
/// every deadline through one sleeper. Deadlines of one configuration only grow, so a new entry rarely comes before
/// the one the sleeper waits for, and the sleeper is re-armed (a new task) only then.
///
/// Invariants: an entry's action runs at most once, after the clock reached its deadline, outside the lock, never
/// after ``cancel(_:)`` returned for it; `armedAt` is the instant the current sleeper wakes at, and is never later
/// than the earliest live entry; entries cancelled at the top of the heap are dropped at once, the others when
/// they reach the top (memory is bounded by the entries scheduled within one deadline's span).
package final class DeadlineScheduler: Sendable {
    /// Identifies a scheduled action, for ``cancel(_:)``.
    package struct Ticket: Sendable, Hashable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let id: UInt64

        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && id < other.id)
        }
    }

    private struct State {
        /// Min-heap by deadline, then scheduling order; may hold cancelled entries below the top.
        var heap: [Entry] = []
        /// The live entries' actions: an entry whose action is gone was cancelled or has run.
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        /// When the current sleeper wakes, if one is armed.
        var armedAt: ContinuousClock.Instant?
        /// The current sleeper's generation: a sleeper that finds another generation has been replaced and stops.
        var generation: UInt64 = 0
        var sleeper: Task<Void, Never>?
    }

    private let now: @Sendable () -> ContinuousClock.Instant
    private let sleep: @Sendable (ContinuousClock.Instant) async throws -> Void
    private let state = Mutex(State())

    /// - Parameters:
    ///   - now: The clock's current instant.
    ///   - sleep: Suspends until an instant of the clock; throws when the task is cancelled.
    init(
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        sleep: @escaping @Sendable (ContinuousClock.Instant) async throws -> Void
    ) {
        self.now = now
        self.sleep = sleep
    }

    /// The number of live entries, for tests and diagnostics.
    package var pendingCount: Int { state.withTrackedLock { $0.actions.count } }

    /// Runs `action` once the clock reaches `deadline`, unless cancelled first.
    ///
    /// - Parameters:
    ///   - deadline: When to run it; a deadline already passed runs it as soon as the sleeper wakes.
    ///   - action: What to run: briefly, without blocking (it runs on the sleeper's task).
    /// - Returns: The ticket that cancels it.
    package func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> Ticket {
        let (ticket, arm) = state.withTrackedLock { state -> (Ticket, (generation: UInt64, replaced: Task<Void, Never>?)?) in
            state.nextID += 1
            let id = state.nextID
            state.actions[id] = action
            Self.push(Entry(deadline: deadline, id: id), into: &state.heap)
            if let armedAt = state.armedAt, armedAt <= deadline { return (Ticket(id: id), nil) }
            state.armedAt = deadline
            state.generation += 1
            defer { state.sleeper = nil }
            return (Ticket(id: id), (state.generation, state.sleeper))
        }
        if let arm { startSleeper(generation: arm.generation, until: deadline, replacing: arm.replaced) }
        return ticket
    }

    /// Cancels a scheduled action; does nothing when it has run or was cancelled.
    ///
    /// - Parameter ticket: The ticket ``schedule(at:_:)`` returned.
    package func cancel(_ ticket: Ticket) {
        state.withTrackedLock { state in
            guard state.actions.removeValue(forKey: ticket.id) != nil else { return }
            // The sleeper stays armed: the next link's deadline is later, and it re-arms itself at its wake-up.
            while let top = state.heap.first, state.actions[top.id] == nil { Self.popTop(&state.heap) }
        }
    }

    /// Starts the sleeper of `generation` (outside the lock) and records it, unless a newer one replaced it since.
    private func startSleeper(generation: UInt64, until deadline: ContinuousClock.Instant, replacing replaced: Task<Void, Never>?) {
        replaced?.cancel()
        // Deadlines are user-facing waits: they must not queue behind the host's background work.
        let task = Task(priority: .userInitiated) { [self] in await run(generation: generation, until: deadline) }
        let current = state.withTrackedLock { state -> Bool in
            guard state.generation == generation else { return false }
            state.sleeper = task
            return true
        }
        if !current { task.cancel() }
    }

    /// Sleeps until the earliest entry, runs what is due, and goes on until nothing is left or it is replaced.
    private func run(generation: UInt64, until first: ContinuousClock.Instant) async {
        var wakeAt = first
        while true {
            do {
                try await sleep(wakeAt)
            } catch {
                return  // Replaced by a sleeper for an earlier deadline.
            }
            // A sleep that returned reached its instant, whatever the clock's `now` says (a test clock may return at
            // once without moving): trusting `now` alone would make such a clock spin here.
            let now = max(self.now(), wakeAt)
            let (due, next) = state.withTrackedLock { state -> ([@Sendable () -> Void], ContinuousClock.Instant?) in
                guard state.generation == generation else { return ([], nil) }
                var due: [@Sendable () -> Void] = []
                while let top = state.heap.first, top.deadline <= now || state.actions[top.id] == nil {
                    Self.popTop(&state.heap)
                    if let action = state.actions.removeValue(forKey: top.id) { due.append(action) }
                }
                state.armedAt = state.heap.first?.deadline
                if state.armedAt == nil { state.sleeper = nil }
                return (due, state.armedAt)
            }
            for action in due { action() }
            guard let next else { return }
            wakeAt = next
        }
    }

    private static func push(_ entry: Entry, into heap: inout [Entry]) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func popTop(_ heap: inout [Entry]) {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, heap[left + 1].precedes(heap[left]) { smallest = left + 1 }
            guard heap[smallest].precedes(heap[parent]) else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
