import Synchronization

/// The next index for workers sharing one range (a class: a `Mutex` cannot be captured by the workers' tasks).
final class Counter: Sendable {
    private let value = Mutex(0)

    /// The next index.
    func take() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
