import Synchronization
internal import _LinkKitLocking

/// Whether a manager takes links, and how many entry points are taking one right now.
///
/// Invariant: once ``close()`` has begun, ``pass(_:)`` runs nothing new; ``close()`` returns only after every
/// body that passed before has returned, so no link slips in between a shutdown's check and its count of what is
/// in flight.
final class AdmissionGate: Sendable {
    private struct State {
        var isOpen = true
        /// Bodies running now.
        var passing = 0
        /// Closers waiting for `passing` to reach zero.
        var drainWaiters: [Waiter<Void>] = []
    }

    private let state = Mutex(State())

    init() {}

    /// Whether links are taken.
    var isOpen: Bool { state.withTrackedLock { $0.isOpen } }

    /// Runs `body` as one admission, or returns `nil` once closing began.
    func pass<T>(_ body: () -> T) -> T? {
        let admitted = state.withTrackedLock { state in
            guard state.isOpen else { return false }
            state.passing += 1
            return true
        }
        guard admitted else { return nil }
        defer {
            let drained = state.withTrackedLock { state -> [Waiter<Void>] in
                state.passing -= 1
                guard state.passing == 0, !state.isOpen else { return [] }
                defer { state.drainWaiters = [] }
                return state.drainWaiters
            }
            for waiter in drained { waiter.resume(returning: ()) }
        }
        return body()
    }

    /// Stops admitting and returns once every body admitted before has finished.
    func close() async {
        await beginClosing()?.value
    }

    /// Stops admitting, at once.
    ///
    /// - Returns: A waiter that ends once every body admitted before has finished, or `nil` when none is running.
    func beginClosing() -> Waiter<Void>? {
        state.withTrackedLock { state -> Waiter<Void>? in
            state.isOpen = false
            guard state.passing > 0 else { return nil }
            let waiter = Waiter<Void>()
            state.drainWaiters.append(waiter)
            return waiter
        }
    }
}
