#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this process runs under AddressSanitizer or ThreadSanitizer (CI's `--sanitize` runs), found by their
/// runtimes' entry points, which the sanitized binary exports. Such runs are about ten times slower: timing
/// bounds widen there, and ASan's quarantine keeps freed memory resident, so RSS bounds do not apply.
enum Sanitizer {
    static let isAddress = dlsym(defaultHandle, "__asan_init") != nil
    static let isThread = dlsym(defaultHandle, "__tsan_init") != nil
    static var isActive: Bool { isAddress || isThread }

    private static var defaultHandle: UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
        nil  // RTLD_DEFAULT
        #endif
    }
}
