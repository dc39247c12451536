import Foundation
import Testing
import UniversalLinkKitTesting
#if canImport(Glibc)
import Glibc

/// The resolving process's memory is bounded by the cap whatever the answer: `linux-host resolve` (on its default
/// transport, `CurlTransport` on Linux) against hostile stub answers, its peak RSS measured.
///
/// The peak is the child's own high-water mark (`VmHWM` of `/proc/PID/status`), sampled every millisecond until
/// it exits, not `wait4`'s `ru_maxrss`: `posix_spawn` execs from a `vfork` of this process, and Linux then
/// counts the spawning process's high-water mark in the child's `ru_maxrss` (a full `swift test` run, whose process
/// peaks at hundreds of MiB, showed the same 650 MiB for every child). `VmHWM` belongs to the new image alone.
struct ResolveMemoryTests {
    struct Run {
        var peakKiB: Int
        var samples: Int
        var elapsed: Duration
        /// When the child had exited (its resolution returned).
        var exited: ContinuousClock.Instant
    }

    /// Runs `linux-host resolve` on `url` and measures the child's peak resident set.
    static func resolve(_ url: URL) async throws -> Run {
        let path = HostProcess.binary.path
        let arguments = [path, "resolve", "--json", "--allow-loopback", "--allow-http", "--timeout", "20", url.absoluteString]
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try spawnAndWait(path, arguments) })
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
        return Run(peakKiB: peak, samples: samples, elapsed: exited - start, exited: exited)
    }

    /// `VmHWM` of a live process, in KiB.
    private static func highWaterMark(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
    }

    static let hostile: [(String, Behavior)] = [
        ("gzip bomb (1 MiB inflating to about 150 MiB)", .compressedBomb(bytes: 1 << 20)),
        ("1 GiB chunked", .chunkedBody(bytes: 1 << 30)),
        ("endless chunked", .endlessBody),
        ("1 GiB with its Content-Length", .hugeBody(bytes: 1 << 30)),
    ]

    /// Waits until the stub has counted the bytes of its answer: it does when the answer's writing ends, which
    /// for a transfer the client stopped is when the stub's write fails, possibly after the child exited.
    static func bytesSent(by stub: ResponseHandlerStub, within limit: Duration = .seconds(5)) async -> Int {
        await stub.waitForAnswerEnd(timeout: limit)
        return stub.bytesSent
    }

    @Test func peakMemoryStaysWithin32MiBOfASmallAnswersWhateverTheServerSends() async throws {
        let link = ResponseHandlerStub.Link(webLinkUrl: "https://www.example.com/p/1", mobileDeepLinkUrl: nil)
        let stub = try ResponseHandlerStub(links: ["/pub/acc": link])
        defer { stub.shutdown() }
        // The small answer's child lives a few milliseconds: on a loaded machine it may exit before the first
        // sample (a peak of 0 would make every hostile run look 38 MiB larger), so it is measured until sampled.
        var baseline = try await Self.resolve(stub.url("/pub/acc?_ri_=small"))
        var attempts = 1
        while baseline.samples == 0, attempts < 5 {
            baseline = try await Self.resolve(stub.url("/pub/acc?_ri_=small"))
            attempts += 1
        }
        #expect(stub.requestCount == attempts)
        #expect(baseline.samples > 0)
        for (name, behavior) in Self.hostile {
            stub.resetRecording()
            stub.setDefaultBehavior(behavior)
            let run = try await Self.resolve(stub.url("/pub/acc?_ri_=hostile"))
            let grownKiB = run.peakKiB - baseline.peakKiB
            #expect(run.samples > 0, "\(name): never sampled")
            // Under AddressSanitizer its quarantine keeps freed memory resident (and shadow memory grows with
            // every allocation), so the RSS bound says nothing there; it holds everywhere else.
            if !Sanitizer.isAddress {
                #expect(grownKiB < 32 * 1024, "\(name): peak \(run.peakKiB) KiB against \(baseline.peakKiB) KiB")
            }
            // Milliseconds normally; a sanitized child starts and runs about ten times slower.
            #expect(run.elapsed < (Sanitizer.isActive ? .seconds(60) : .seconds(10)), "\(name): took \(run.elapsed)")
            // The transfer stopped: the stub wrote what socket buffers held, not the body, and stopped writing
            // about when the child's resolution returned.
            let sent = await Self.bytesSent(by: stub)
            #expect(sent > 0, "\(name): the stub's answer never ended")
            #expect(sent < 48 << 20, "\(name): the stub wrote \(sent) bytes")
            if let ended = stub.lastAnswerEnded {
                let limit: Duration = Sanitizer.isActive ? .seconds(3) : .seconds(1)
                #expect(ended - run.exited < limit, "\(name): the stub wrote on for \(ended - run.exited) after the child exited")
            }
            #expect(stub.requestCount == 1, "\(name)")
        }
    }
}
#endif
