import Synchronization

extension Mutex {
    /// `withLock`, plus the acquire and release announced to ThreadSanitizer (see ``ThreadSanitizerHints``).
    ///
    /// Every lock in UniversalLinkKit's modules goes through this, so `swift test --sanitize=thread` reports real
    /// races only. The mutex's own address identifies the lock to the sanitizer. It is taken from a borrow of the
    /// mutex, outside the lock: taking it from the protected value (`&value`) is itself a modifying access that
    /// the sanitizer sees before the acquire is announced, and reports as a race with the previous holder.
    @inlinable
    package borrowing func withTrackedLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        // `Mutex` is `@_staticExclusiveOnly`: a borrow of it is its storage, so the address is stable.
        let address = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
        return try withLock { (value: inout sending Value) throws(E) -> sending Result in
            ThreadSanitizerHints.acquired(address)
            defer { ThreadSanitizerHints.releasing(address) }
            return try body(&value)
        }
    }
}
