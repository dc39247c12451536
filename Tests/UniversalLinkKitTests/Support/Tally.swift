import Synchronization
import _LinkKitLocking

/// Counts occurrences of keys from any thread (behind a lock ThreadSanitizer can see).
final class Tally: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    func add(_ key: String) {
        counts.withTrackedLock { $0[key, default: 0] += 1 }
    }

    var all: [String: Int] { counts.withTrackedLock { $0 } }
    var total: Int { counts.withTrackedLock { $0.values.reduce(0, +) } }
    subscript(key: String) -> Int { counts.withTrackedLock { $0[key] ?? 0 } }
}

/// Collects values from any thread.
final class Collector<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func append(_ item: Element) {
        items.withTrackedLock { $0.append(item) }
    }

    var all: [Element] { items.withTrackedLock { $0 } }
}
