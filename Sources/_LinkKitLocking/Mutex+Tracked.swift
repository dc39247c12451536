import Synchronization

extension Mutex {
    /// `withLock`, plus the acquire and release announced to ThreadSanitizer (see ``ThreadSanitizerHints``).
    ///
    /// Every lock in UniversalLinkKit's modules goes through this, so `swift test --sanitize=thread` reports real
    /// races only. The protected value's address inside the mutex identifies the lock to the sanitizer.
    @inlinable
    public borrowing func withTrackedLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try withLock { (value: inout sending Value) throws(E) -> sending Result in
            let address = withUnsafeMutablePointer(to: &value) { UnsafeMutableRawPointer($0) }
            ThreadSanitizerHints.acquired(address)
            defer { ThreadSanitizerHints.releasing(address) }
            return try body(&value)
        }
    }
}
