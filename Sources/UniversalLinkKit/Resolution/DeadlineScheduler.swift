import Dispatch
import Synchronization
internal import _LinkKitLocking

/// One Dispatch timer for every deadline on the system clock in the process.
///
/// Arming and disarming a Dispatch timer source per resolution wakes a Dispatch thread each time (about two
/// context switches and tens of microseconds of CPU on a loaded machine, as much as the task hops this
/// replaces). Here a deadline is an entry in a heap behind a lock: arming touches the Dispatch source only when
/// the new deadline is earlier than the one it is set for, and disarming never does: the handler is dropped at
/// once and its heap entry skipped when it comes up. With equal timeouts, later resolutions have later
/// deadlines, so in steady state a resolution costs one lock to arm and one to disarm, and the source wakes
/// about once per timeout to skip the entries of finished resolutions.
final class DeadlineScheduler: Sendable {
    /// The process-wide scheduler.
    static let shared = DeadlineScheduler()

    private struct Entry {
        var deadline: ContinuousClock.Instant
        var id: UInt64
    }

    private struct State {
        var heap: [Entry] = []
        var handlers: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        /// What the source is set to fire at, if anything.
        var scheduled: ContinuousClock.Instant?
        var source: (any DispatchSourceTimer)?
    }

    private let queue = DispatchQueue(label: "UniversalLinkKit.DeadlineScheduler", qos: .userInitiated)
    private let state = Mutex(State())

    /// Arms `fire` for `deadline`; it runs on the scheduler's queue, never before `deadline` on the continuous
    /// clock, unless disarmed first.
    ///
    /// - Returns: The token for ``disarm(_:)``.
    func arm(_ deadline: ContinuousClock.Instant, fire: @escaping @Sendable () -> Void) -> UInt64 {
        state.withTrackedLock { state -> UInt64 in
            state.nextID += 1
            let id = state.nextID
            state.handlers[id] = fire
            Self.push(Entry(deadline: deadline, id: id), onto: &state.heap)
            if let scheduled = state.scheduled, scheduled <= deadline { return id }
            // Set inside the lock, so that two arms cannot leave the source at the later of their deadlines.
            state.scheduled = deadline
            let source = state.source ?? makeSource()
            if state.source == nil { state.source = source }
            source.schedule(deadline: Self.dispatchTime(deadline), repeating: .never, leeway: .milliseconds(1))
            return id
        }
    }

    /// Disarms a deadline: its handler is released now and will not be called (unless it is already running).
    func disarm(_ id: UInt64) {
        let handler = state.withTrackedLock { state -> (@Sendable () -> Void)? in
            let handler = state.handlers.removeValue(forKey: id)
            // Finished resolutions' entries wait in the heap for their deadline; drop them in bulk if they come
            // to dominate it, so its size follows the resolutions in flight.
            if state.heap.count > 1024, state.heap.count > 4 * state.handlers.count {
                state.heap.removeAll { state.handlers[$0.id] == nil }
                Self.heapify(&state.heap)
            }
            return handler
        }
        // Released outside the lock: whatever it captured may have a deinit of its own.
        withExtendedLifetime(handler) {}
    }

    /// Deadlines armed and not yet fired or disarmed.
    var armedCount: Int { state.withTrackedLock { $0.handlers.count } }

    private func makeSource() -> any DispatchSourceTimer {
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.setEventHandler { [weak self] in self?.fireDue() }
        source.activate()
        return source
    }

    private func fireDue() {
        let due = state.withTrackedLock { state -> [@Sendable () -> Void] in
            let now = ContinuousClock.now
            var due: [@Sendable () -> Void] = []
            while let top = state.heap.first, top.deadline <= now || state.handlers[top.id] == nil {
                Self.popFirst(&state.heap)
                if let handler = state.handlers.removeValue(forKey: top.id) { due.append(handler) }
            }
            if let next = state.heap.first {
                state.scheduled = next.deadline
                state.source?.schedule(deadline: Self.dispatchTime(next.deadline), repeating: .never, leeway: .milliseconds(1))
            } else {
                state.scheduled = nil
            }
            return due
        }
        for handler in due { handler() }
    }

    /// The Dispatch time of an instant of the continuous clock (Dispatch counts on its own clock).
    private static func dispatchTime(_ deadline: ContinuousClock.Instant) -> DispatchTime {
        let delay = max(.zero, deadline - ContinuousClock.now)
        // 68 years and more: never, rather than an overflow.
        guard delay < .seconds(Int64(Int32.max)) else { return .distantFuture }
        let (seconds, attoseconds) = delay.components
        // Rounded up, so the source never fires before the deadline by the continuous clock.
        return .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int((attoseconds + 999_999_999) / 1_000_000_000))
    }

    // MARK: Binary min-heap on the deadline

    private static func push(_ entry: Entry, onto heap: inout [Entry]) {
        heap.append(entry)
        siftUp(&heap, from: heap.count - 1)
    }

    private static func popFirst(_ heap: inout [Entry]) {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(&heap, from: 0)
    }

    private static func heapify(_ heap: inout [Entry]) {
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(&heap, from: index) }
    }

    private static func siftUp(_ heap: inout [Entry], from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func siftDown(_ heap: inout [Entry], from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, heap[left + 1].deadline < heap[left].deadline { smallest = left + 1 }
            guard heap[smallest].deadline < heap[parent].deadline else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
