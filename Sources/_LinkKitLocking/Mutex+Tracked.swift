import Synchronization

extension Mutex {
    /// `withLock`, plus the acquire and release announced to ThreadSanitizer (see ``ThreadSanitizerHints``).
    ///
    /// Every lock in UniversalLinkKit's modules goes through this, so `swift test --sanitize=thread` reports real
    /// races only. The mutex's own address identifies the lock to the sanitizer; it is taken before locking so
    /// that no access to the protected value happens outside the announced critical section.
    @inlinable
    public borrowing func withTrackedLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let address = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
        return try withLock { (value: inout sending Value) throws(E) -> sending Result in
            ThreadSanitizerHints.acquired(address)
            defer { ThreadSanitizerHints.releasing(address) }
            return try body(&value)
        }
    }
}
