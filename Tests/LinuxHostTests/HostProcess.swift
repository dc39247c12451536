import Foundation
import Synchronization
import _LinkKitLocking
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

    /// Runs the binary on a thread of its own, so waiting for it never blocks the cooperative pool.
    static func run(_ arguments: [String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Swift.Result { try runBlocking(arguments) })
            }
            thread.start()
        }
    }

    private static func runBlocking(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain stderr on another thread while this one drains stdout, so a chatty child never blocks on a full pipe.
        let errData = ErrorDrain(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData.wait(), as: UTF8.self))
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorDrain: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let data = Mutex(Data())

    init(_ handle: FileHandle) {
        Thread { [self] in
            let bytes = handle.readDataToEndOfFile()
            data.withTrackedLock { $0 = bytes }
            done.signal()
        }.start()
    }

    func wait() -> Data {
        done.wait()
        return data.withTrackedLock { $0 }
    }
}
