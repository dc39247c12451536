import Foundation
import Testing
import UniversalLinkKitTesting
#if canImport(Glibc)
import Glibc

/// The resolving process's memory is bounded by the cap whatever the answer: `linux-host resolve` (on its default
/// transport, ``CurlTransport`` on Linux) against hostile stub answers, its peak RSS measured by `wait4`.
struct ResolveMemoryTests {
    struct Run {
        var peakKiB: Int
        var elapsed: Duration
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
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        return Run(peakKiB: usage.ru_maxrss, elapsed: .now - start)
    }

    static let hostile: [(String, Behavior)] = [
        ("gzip bomb (1 MiB inflating to about 150 MiB)", .compressedBomb(bytes: 1 << 20)),
        ("1 GiB chunked", .chunkedBody(bytes: 1 << 30)),
        ("endless chunked", .endlessBody),
        ("1 GiB with its Content-Length", .hugeBody(bytes: 1 << 30)),
    ]

    @Test func peakMemoryStaysWithin32MiBOfASmallAnswersWhateverTheServerSends() async throws {
        let link = ResponseHandlerStub.Link(webLinkUrl: "https://www.example.com/p/1", mobileDeepLinkUrl: nil)
        let stub = try ResponseHandlerStub(links: ["/pub/acc": link])
        defer { stub.shutdown() }
        let baseline = try await Self.resolve(stub.url("/pub/acc?_ri_=small"))
        #expect(stub.requestCount == 1)
        for (name, behavior) in Self.hostile {
            stub.resetRecording()
            stub.setDefaultBehavior(behavior)
            let run = try await Self.resolve(stub.url("/pub/acc?_ri_=hostile"))
            let grownKiB = run.peakKiB - baseline.peakKiB
            #expect(grownKiB < 32 * 1024, "\(name): peak \(run.peakKiB) KiB against \(baseline.peakKiB) KiB")
            #expect(run.elapsed < .seconds(10), "\(name): took \(run.elapsed)")
            // The transfer stopped: the stub wrote what socket buffers held, not the body.
            #expect(stub.bytesSent < 48 << 20, "\(name): the stub wrote \(stub.bytesSent) bytes")
            #expect(stub.requestCount == 1, "\(name)")
        }
    }
}
#endif
