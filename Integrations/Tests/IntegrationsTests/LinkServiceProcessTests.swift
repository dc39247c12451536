import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import UniversalLinkKitTesting

/// The built `link-service` binary, as an operator runs it: configured by the environment, stopped by a signal.
struct LinkServiceProcessTests {
    /// The binary SwiftPM built next to the test bundle.
    static var binary: URL {
        let bundle = Bundle.main.bundleURL
        let candidates = [bundle, bundle.deletingLastPathComponent(), URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        for directory in candidates {
            let url = directory.appendingPathComponent("link-service")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return bundle.appendingPathComponent("link-service")
    }

    @Test(.timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT])
    func aSignalLetsTheRequestInFlightFinishThenTheServiceExitsZero(signal: Int32) async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.enqueue([.delay(1)], for: "/pub/acc?_ri_=deep")

        let process = Process()
        process.executableURL = Self.binary
        process.environment = ["HOST": "127.0.0.1", "PORT": "0", "ULK_ALLOW_LOCAL": "1", "ULK_TIMEOUT_SECONDS": "10"]
        process.standardOutput = FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        let (chunks, chunkSink) = AsyncStream.makeStream(of: String.self)
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                chunkSink.finish()
            } else {
                chunkSink.yield(String(decoding: data, as: UTF8.self))
            }
        }
        let (exits, exitSink) = AsyncStream.makeStream(of: (Process.TerminationReason, Int32).self)
        process.terminationHandler = { exitSink.yield(($0.terminationReason, $0.terminationStatus)) }
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        var log = ""
        var reader = chunks.makeAsyncIterator()
        var port: Int?
        while port == nil, let chunk = await reader.next() {
            log += chunk
            port = Self.listeningPort(in: log)
        }
        let address = try #require(port.map { "http://127.0.0.1:\($0)/resolve" }, "no listening line in: \(log)")

        let body = #"{"url": "\#(stub.url("/pub/acc?_ri_=deep").absoluteString)"}"#
        let request = Task { try await LinkServiceBehaviourTests.post(body, to: address) }
        #expect(await stub.waitForRequests(1))
        kill(process.processIdentifier, signal)

        let (status, data) = try await request.value
        #expect(status == 200)
        #expect(String(decoding: data, as: UTF8.self).contains(#""deepLinkURL":"example-app://products/1""#))
        var exitsIterator = exits.makeAsyncIterator()
        let exit = await exitsIterator.next()
        #expect(exit?.0 == .exit)
        #expect(exit?.1 == 0)
        while let chunk = await reader.next() { log += chunk }
        #expect(log.contains("link.outcome=resolved"), "log: \(log)")
        #expect(log.contains("link handled"))
    }

    @Test func withoutBrandedDomainsItRefusesToStartAndSaysWhichVariable() async throws {
        let process = Process()
        process.executableURL = Self.binary
        process.environment = ["PORT": "0"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(message.contains("ULK_BRANDED_DOMAINS"))
    }

    /// The port of Hummingbird's "Server started and listening on HOST:PORT" line, once the line is complete.
    static func listeningPort(in log: String) -> Int? {
        guard let range = log.range(of: "listening on 127.0.0.1:") else { return nil }
        let rest = log[range.upperBound...]
        guard let end = rest.firstIndex(where: { !$0.isNumber }), rest[end] == "\n" || rest[end] == " " else { return nil }
        return Int(rest[..<end])
    }
}
