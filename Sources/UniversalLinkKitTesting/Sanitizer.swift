#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this process runs under AddressSanitizer or ThreadSanitizer (`swift test --sanitize=...`), found by
/// their runtimes' entry points, which a sanitized binary exports.
///
/// Such runs are about ten times slower, so a test's bound on elapsed time widens there; and ASan's quarantine
/// keeps freed memory resident, so a bound on resident size does not apply under it.
///
/// ```swift
/// // snippet: skip
/// // (a package type, which the snippets module cannot see)
/// let limit: Duration = Sanitizer.isActive ? .seconds(3) : .seconds(1)
/// ```
package enum Sanitizer {
    /// Whether AddressSanitizer's runtime is loaded.
    package static let isAddress = dlsym(defaultHandle, "__asan_init") != nil
    /// Whether ThreadSanitizer's runtime is loaded.
    package static let isThread = dlsym(defaultHandle, "__tsan_init") != nil
    /// Whether either is.
    package static var isActive: Bool { isAddress || isThread }

    private static var defaultHandle: UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
        nil  // RTLD_DEFAULT
        #endif
    }
}
