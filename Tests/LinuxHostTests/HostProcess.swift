import Foundation
import Testing

/// Runs the `linux-host` binary built next to the test bundle and captures its output.
struct HostProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

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
        let process = Process()
        if let redirection {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \"$0\" \"$@\" \(redirection)", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        // Reported by Foundation's child monitor: `waitUntilExit()` spins its run loop at 100 % of a core meanwhile.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        exited.wait()
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

extension HostProcess {
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
        let process = Process()
        process.executableURL = HostProcess.binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        let (lines, lineSink) = AsyncStream.makeStream(of: String.self)
        let (exited, exitSink) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { exitSink.yield($0.terminationStatus); exitSink.finish() }
        try process.run()
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
        let pid = process.processIdentifier
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
