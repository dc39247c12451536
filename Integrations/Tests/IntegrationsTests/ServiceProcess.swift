import Foundation
import Synchronization
import Testing

/// A running `link-service` binary, as an operator runs it: configured by the environment, watched through its
/// standard error, stopped by a signal. Tests wait on its output lines and its exit, never on a sleep; `stop()`
/// (also run when the value is dropped, for the paths that throw) kills it if it still runs.
final class ServiceProcess: Sendable {
    /// The built binary, next to the test bundle.
    static var binary: URL {
        let bundle = Bundle.main.bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent(), URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for directory in candidates {
            let url = directory.appendingPathComponent("link-service")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundle.appendingPathComponent("link-service")
    }

    private struct State {
        var log = ""
        var waiters: [(condition: @Sendable (String) -> Bool, continuation: CheckedContinuation<Bool, Never>)] = []
        var exit: Int32?
        var exitWaiters: [CheckedContinuation<Int32, Never>] = []
        var outputEnded = false
    }

    /// The state the process's handlers share with the tests (a box of its own, so that the handlers do not
    /// hold the `ServiceProcess`, whose `deinit` stops the process).
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let process = Process()
    private let shared = Shared()

    /// Starts the binary with exactly `environment`.
    init(environment: [String: String]) throws {
        process.executableURL = Self.binary
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        // The exit is reported by Foundation's own child monitor, which also sets `isRunning`: `waitUntilExit()`
        // spins its run loop at 100 % of a core for as long as the child lives (two replicas held both cores).
        process.terminationHandler = { [shared] process in
            let status = process.terminationStatus
            let waiters = shared.state.withLock { state in
                state.exit = status
                defer { state.exitWaiters = [] }
                return state.exitWaiters
            }
            for waiter in waiters { waiter.resume(returning: status) }
        }
        try process.run()
        // A thread of its own blocks on the pipe (readabilityHandler missed the end of output of a process that
        // exits at once, under load).
        let reading = stderr.fileHandleForReading
        Thread.detachNewThread { [shared] in
            while true {
                let data = reading.availableData
                let ready: [CheckedContinuation<Bool, Never>] = shared.state.withLock { state in
                    if data.isEmpty {
                        state.outputEnded = true
                        defer { state.waiters = [] }
                        return state.waiters.map(\.continuation)
                    }
                    state.log += String(decoding: data, as: UTF8.self)
                    let log = state.log
                    let (met, unmet) = (state.waiters.filter { $0.condition(log) }, state.waiters.filter { !$0.condition(log) })
                    state.waiters = unmet
                    return met.map(\.continuation)
                }
                // Resumed with whether the condition holds: false once the output ended without it.
                for continuation in ready { continuation.resume(returning: !data.isEmpty) }
                if data.isEmpty { return }
            }
        }
    }

    deinit { stop() }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Everything written to standard error so far.
    var log: String { shared.state.withLock { $0.log } }

    /// Waits until the output satisfies `condition`; `false` if the output ended first.
    func waitForOutput(_ condition: @escaping @Sendable (String) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            let now: Bool? = shared.state.withLock { state in
                if condition(state.log) { return true }
                if state.outputEnded { return false }
                state.waiters.append((condition, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Everything the process wrote, once it exited: waits for the end of its output, at most 5 s after the exit
    /// (a descriptor of the pipe inherited by another child would hold the end back).
    func finalLog() async -> String {
        _ = await exitStatus()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = await self.waitForOutput { _ in false } }
            group.addTask { try? await Task.sleep(for: .seconds(5)) }
            await group.next()
            group.cancelAll()
        }
        return log
    }

    /// Waits for a line containing `text`.
    func waitForLine(containing text: String) async -> Bool {
        await waitForOutput { $0.contains(text) }
    }

    /// Waits for the listening line and returns the port.
    func port() async throws -> Int {
        _ = await waitForOutput { Self.listeningPort(in: $0) != nil }
        return try #require(Self.listeningPort(in: log), "no listening line in: \(log)")
    }

    /// Waits for the exit and returns the status (the signal's number for a signal).
    func exitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status: Int32? = shared.state.withLock { state in
                if let exit = state.exit { return exit }
                state.exitWaiters.append(continuation)
                return nil
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    /// Sends `signal`.
    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Kills the process if it still runs.
    func stop() {
        if process.isRunning { process.terminate() }
    }

    /// The port of Hummingbird's "Server started and listening on HOST:PORT" line, once the line is complete.
    static func listeningPort(in log: String) -> Int? {
        guard let range = log.range(of: "listening on 127.0.0.1:") else { return nil }
        let rest = log[range.upperBound...]
        guard let end = rest.firstIndex(where: { !$0.isNumber }), rest[end] == "\n" || rest[end] == " " else { return nil }
        return Int(rest[..<end])
    }
}
