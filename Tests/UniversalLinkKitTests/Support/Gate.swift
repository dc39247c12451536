import Synchronization
import _LinkKitLocking

/// A gate that tasks wait at until the test opens it: lets a test hold a request in flight for exactly as long as it
/// needs, instead of a delay a loaded machine may outlast.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Returns once the gate is open (at once if it is).
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isOpen = state.withTrackedLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Opens the gate: every waiter goes on, and later ones do not wait.
    func open() {
        let waiters = state.withTrackedLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
