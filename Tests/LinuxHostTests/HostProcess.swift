import Foundation
import Testing

/// Runs the `linux-host` binary built next to the test bundle and captures its output.
struct HostProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// From the spawn to the exit, as the thread waiting for the child saw it: the command's own time, not
        /// delayed by the test's task waiting for a thread of a busy pool to resume it.
        var elapsed: Duration = .zero

        /// stdout's lines parsed as JSON objects.
        func jsonLines() throws -> [[String: Any]] {
            try stdout.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            }
        }
    }

    static var binary: URL {
        let bundle = Bundle.main.bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent(), URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for directory in candidates {
            let url = directory.appendingPathComponent("linux-host")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundle.appendingPathComponent("linux-host")
    }

    /// Runs the binary to its end on a thread of its own, so waiting for it never blocks the cooperative pool.
    ///
    /// - Parameters:
    ///   - arguments: the command line after the program name.
    ///   - redirection: a shell redirection applied to the binary, e.g. `>/dev/full` or `>&-` (stdout then is
    ///     not captured).
    static func run(_ arguments: [String], redirection: String? = nil) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Swift.Result { try runBlocking(arguments, redirection: redirection) })
            }.start()
        }
    }

    /// The output goes to files, not pipes: nothing has to drain them while the child runs.
    private static func runBlocking(_ arguments: [String], redirection: String?) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
        let outURL = directory.appendingPathComponent("linux-host-out-\(UUID().uuidString)")
        let errURL = directory.appendingPathComponent("linux-host-err-\(UUID().uuidString)")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let pid: pid_t
        let spawned = ContinuousClock.now
        if let redirection {
            pid = try spawn(
                "/bin/sh", ["-c", "exec \"$0\" \"$@\" \(redirection)", binary.path] + arguments,
                stdout: out.fileDescriptor, stderr: err.fileDescriptor)
        } else {
            pid = try spawn(binary.path, arguments, stdout: out.fileDescriptor, stderr: err.fileDescriptor)
        }
        let status = waitForExit(pid)
        let elapsed = ContinuousClock.now - spawned
        try out.close()
        try err.close()
        return Result(status: status,
                      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
                      elapsed: elapsed)
    }
}

extension HostProcess {
    /// Starts `executable` with `posix_spawn`, stdin from /dev/null and stdout and stderr to the descriptors given
    /// (/dev/null when `nil`).
    ///
    /// Not Foundation's `Process`: under a parallel test run its `run()` once crashed between fork and exec, and the
    /// runtime's backtrace of that crash held every thread of the test process for two minutes (every test waiting
    /// on anything timed out). glibc's child runs none of our code and no handler of the runtime's.
    ///
    /// - Returns: The child's process ID.
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        stdout: Int32? = nil, stderr: Int32? = nil
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (target, source) in [(Int32(1), stdout), (Int32(2), stderr)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            }
        }
        // Nothing else of this process's: another test's pipe kept open by this child would never end.
        // (glibc 2.34+; not in Swift's Glibc module, so looked up.)
        if let closeFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(closeFrom, to: CloseFrom.self)(&actions, 3)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for case let pointer? in argv { free(pointer) } }
        let variables = environment.map { $0.map { "\($0.key)=\($0.value)" } }
            ?? ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let envp = variables.map { strdup($0) } + [nil]
        defer { for case let pointer? in envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "posix_spawn \(executable): \(String(cString: strerror(result)))"])
        }
        return pid
    }

    /// Waits for `pid` to end (blocking: call it on a thread of its own): its exit status, or the number of the
    /// signal that ended it, as Foundation's `terminationStatus` gives it.
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    /// One read(2) of what `descriptor` has into `buffer`, retried on EINTR: the byte count, 0 at the end, -1 on an
    /// error. Not Foundation's `FileHandle` reads, which end in a `try!` on an interrupted read.
    static func read(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            return count
        }
    }
}

/// A `linux-host` process that keeps running (`serve`): its stdout as a stream of lines, read as they come.
///
/// A watchdog kills the process after `limit`, so a test waiting for a line that never comes ends (the stream
/// finishes) instead of hanging the suite.
actor HostSession {
    /// stdout, line by line, as the process writes it; ends when the process closes stdout. One iterator for
    /// the session's life: dropping an `AsyncStream` iterator would end the stream.
    private var lines: AsyncStream<String>.Iterator
    private let exited: AsyncStream<Int32>
    private let pid: Int32
    private let watchdog: Task<Void, Never>

    init(_ arguments: [String], limit: Duration = .seconds(120)) throws {
        let pipe = Pipe()
        let (lines, lineSink) = AsyncStream.makeStream(of: String.self)
        let (exited, exitSink) = AsyncStream.makeStream(of: Int32.self)
        let pid = try HostProcess.spawn(HostProcess.binary.path, arguments, stdout: pipe.fileHandleForWriting.fileDescriptor)
        // The child has its copy: without closing ours, stdout would never end.
        try pipe.fileHandleForWriting.close()
        Thread { exitSink.yield(HostProcess.waitForExit(pid)); exitSink.finish() }.start()
        // A thread of its own: blocking reads stay off the cooperative pool. Plain read(2), which returns what
        // is there, and the pipe's handle kept alive by the thread (closing it would SIGPIPE the child).
        let reader = pipe.fileHandleForReading
        Thread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = HostProcess.read(reader.fileDescriptor, into: &buffer)
                guard count > 0 else { break }
                pending += buffer[..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lineSink.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            lineSink.finish()
            withExtendedLifetime(reader) {}
        }.start()
        self.pid = pid
        self.lines = lines.makeAsyncIterator()
        self.exited = exited
        watchdog = Task {
            if (try? await Task.sleep(for: limit)) != nil { kill(pid, SIGKILL) }
        }
    }

    deinit {
        watchdog.cancel()
        kill(pid, SIGKILL)
    }

    /// The next line; nil when stdout ended.
    func nextLine() async -> String? {
        await line { _ in true }
    }

    /// Reads lines until one satisfies `predicate`; nil when stdout ends first.
    func line(where predicate: (String) -> Bool) async -> String? {
        var iterator = lines  // shares the stream's state; written back so the stream lives on
        defer { lines = iterator }
        while let line = await iterator.next(isolation: self) {
            if predicate(line) { return line }
        }
        return nil
    }

    /// Sends SIGINT and returns the exit status.
    func interrupt() async -> Int32? {
        kill(pid, SIGINT)
        for await status in exited { return status }
        return nil
    }
}
