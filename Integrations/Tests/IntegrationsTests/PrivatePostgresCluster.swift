import Foundation
import Synchronization
import Testing

/// A PostgreSQL cluster of one test's own, from `Integrations/Scripts/with-postgres`, for the tests that stop the
/// database and start it again (the shared cluster serves the tests running beside them).
///
/// The script runs a shell that prints the cluster's URL, then runs each `pg_ctl` argument line it reads on its
/// standard input and answers `done <status>`; ``stop()`` closes its input, and the script stops and removes the
/// cluster (also when the test process has ended). The shell runs `pg_ctl`, not this process: a child of the test
/// process that exited was not always reaped by Foundation's `Process` here, and its waiter hung.
final class PrivatePostgresCluster: Sendable {
    let url: String
    /// With `tls`, the PEM root of the server's certificate (which names `localhost` only).
    let caFile: String?
    private let process: Process
    private let input: FileHandle
    private let lines: LineReader

    /// - Parameter tls: Whether the server offers TLS, with a certificate made for it (`ULK_TEST_POSTGRES_TLS=1`).
    init(tls: Bool = false) async throws {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/with-postgres")
        let process = Process()
        process.executableURL = script
        process.arguments = [
            "bash", "-c",
            #"echo "url $ULK_TEST_POSTGRES_URL"; echo "ca $ULK_TEST_POSTGRES_CA"; while read -r line; do "$ULK_TEST_POSTGRES_CTL" $line >/dev/null 2>&1; echo "done $?"; done"#,
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        if tls { process.environment = ProcessInfo.processInfo.environment.merging(["ULK_TEST_POSTGRES_TLS": "1"]) { $1 } }
        try process.run()
        self.process = process
        self.input = input.fileHandleForWriting
        let lines = LineReader(output.fileHandleForReading)
        self.lines = lines
        let line = await lines.next(startingWith: "url ")
        guard let line else {
            process.terminate()
            throw CancellationError()
        }
        url = String(line.dropFirst(4))
        let ca = await lines.next(startingWith: "ca ").map { String($0.dropFirst(3)) } ?? ""
        caFile = ca.isEmpty ? nil : ca
    }

    /// Runs the cluster's `pg_ctl` with `arguments` (`stop -m fast -w`, `start -w`) and waits for its status.
    func pgCtl(_ arguments: String...) async throws {
        input.write(Data((arguments.joined(separator: " ") + "\n").utf8))
        let line = try #require(await lines.next(startingWith: "done "), "the with-postgres shell ended")
        #expect(line == "done 0", "pg_ctl \(arguments): \(line)")
    }

    /// Closes the script's standard input: it stops and removes the cluster.
    func stop() {
        try? input.close()
    }

}

/// The lines of a pipe, read on threads of their own (blocking reads), one reader at a time.
private final class LineReader: Sendable {
    private let output: FileHandle
    private let buffer = Mutex("")

    init(_ output: FileHandle) {
        self.output = output
    }

    /// The next line starting with `prefix` (lines before it are dropped); `nil` at the end of the output.
    func next(startingWith prefix: String) async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                while true {
                    let found: String? = buffer.withLock { text in
                        guard let newline = text.firstIndex(of: "\n") else { return nil }
                        let line = String(text[..<newline])
                        text.removeSubrange(...newline)
                        return line
                    }
                    if let found {
                        if found.hasPrefix(prefix) { return continuation.resume(returning: found) }
                        continue
                    }
                    let data = output.availableData
                    if data.isEmpty { return continuation.resume(returning: nil) }
                    buffer.withLock { $0 += String(decoding: data, as: UTF8.self) }
                }
            }
        }
    }
}
