import Foundation
#if canImport(Glibc)
import Glibc

/// Runs the `linux-host` binary and measures its peak resident set, for the tests that bound a command's memory.
///
/// The peak is the child's own high-water mark (`VmHWM` of `/proc/PID/status`), sampled every millisecond until
/// it exits, not `wait4`'s `ru_maxrss`: `posix_spawn` execs from a `vfork` of this process, and Linux then
/// counts the spawning process's high-water mark in the child's `ru_maxrss` (a full `swift test` run, whose process
/// peaks at hundreds of MiB, showed the same 650 MiB for every child). `VmHWM` belongs to the new image alone.
enum PeakMemory {
    struct Run {
        var peakKiB: Int
        var samples: Int
        var elapsed: Duration
        /// When the child had exited.
        var exited: ContinuousClock.Instant
        /// The child's exit status (as `waitpid` reports it).
        var status: Int32
    }

    /// Runs `linux-host` with `arguments` (after the program name) on a thread of its own, output discarded.
    static func run(_ arguments: [String]) async throws -> Run {
        let path = HostProcess.binary.path
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try spawnAndWait(path, [path] + arguments) })
            }.start()
        }
    }

    private static func spawnAndWait(_ path: String, _ arguments: [String]) throws -> Run {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for case let pointer? in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let spawned = argv.withUnsafeBufferPointer { posix_spawn(&pid, path, &actions, nil, $0.baseAddress!, environ) }
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        var peak = 0
        var samples = 0
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid || (waited < 0 && errno != EINTR) { break }
            if let kib = highWaterMark(pid) {
                peak = max(peak, kib)
                samples += 1
            }
            usleep(1000)
        }
        let exited = ContinuousClock.now
        return Run(peakKiB: peak, samples: samples, elapsed: exited - start, exited: exited, status: status)
    }

    /// `VmHWM` of a live process, in KiB.
    private static func highWaterMark(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
    }
}
#endif
