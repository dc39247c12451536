#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Happens-before hints for ThreadSanitizer, active only when its runtime is loaded (`--sanitize=thread`).
///
/// On Linux, `Synchronization.Mutex` waits on a priority-inheritance futex: under contention the kernel hands the
/// lock to the next thread without any user-space atomic that ThreadSanitizer could observe, so it reports
/// "Swift access race" on state that the mutex does protect. Announcing the acquire and release ourselves keeps
/// sanitizer runs free of those false reports, so a report that remains is a real race. Without the sanitizer both
/// calls are a nil check.
@usableFromInline
package enum ThreadSanitizerHints {
    private typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private static let hooks: (acquire: Hook, release: Hook)? = {
        // The main program's handle searches every loaded image, the sanitizer runtime included.
        guard let program = dlopen(nil, RTLD_NOW),
              let acquire = dlsym(program, "__tsan_acquire"),
              let release = dlsym(program, "__tsan_release")
        else { return nil }
        return (unsafeBitCast(acquire, to: Hook.self), unsafeBitCast(release, to: Hook.self))
    }()

    /// Call right after taking the lock identified by `address`.
    @usableFromInline
    package static func acquired(_ address: UnsafeMutableRawPointer) {
        hooks?.acquire(address)
    }

    /// Call right before releasing the lock identified by `address`.
    @usableFromInline
    package static func releasing(_ address: UnsafeMutableRawPointer) {
        hooks?.release(address)
    }
}
