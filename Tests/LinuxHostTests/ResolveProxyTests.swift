import Foundation
import Testing
import UniversalLinkKitTesting

/// Proxies named by the environment are ignored: through one, the connection would go to the proxy and the proxy
/// would look the name up again, past the address check. Run in a `linux-host` child, so that the proxy variables
/// never touch this test process (where `URLSession` tests run in parallel and would honour them).
struct ResolveProxyTests {
    /// Runs `linux-host` with `environment` to its end on a thread of its own; returns its status and stdout.
    static func run(_ arguments: [String], environment: [String: String]) async throws -> (Int32, String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    let pipe = Pipe()
                    let pid = try HostProcess.spawn(
                        HostProcess.binary.path, arguments, environment: environment,
                        stdout: pipe.fileHandleForWriting.fileDescriptor)
                    try pipe.fileHandleForWriting.close()
                    // One short JSON line: read to the end, then wait for the exit. Not `readDataToEndOfFile()`: it
                    // ends in a `try!`, and a read interrupted by a signal crashed the whole parallel test process once.
                    let reader = pipe.fileHandleForReading
                    var output: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while case let count = HostProcess.read(reader.fileDescriptor, into: &buffer), count > 0 {
                        output += buffer[..<count]
                    }
                    let status = HostProcess.waitForExit(pid)
                    return (status, String(decoding: output, as: UTF8.self))
                })
            }.start()
        }
    }

    @Test func proxiesNamedByTheEnvironmentAreIgnored() async throws {
        let link = ResponseHandlerStub.Link(webLinkUrl: "https://www.example.com/p/1", mobileDeepLinkUrl: "example-app://p/1")
        let stub = try ResponseHandlerStub(links: ["/pub/acc": link])
        defer { stub.shutdown() }
        // A listening "proxy": a request that went through it would be seen here (and answered 404).
        let proxy = try ResponseHandlerStub()
        defer { proxy.shutdown() }
        var environment = ProcessInfo.processInfo.environment
        for name in ["no_proxy", "NO_PROXY"] { environment[name] = nil }
        for name in ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            environment[name] = "http://127.0.0.1:\(proxy.port)"
        }
        let url = stub.url("/pub/acc?_ri_=proxy").absoluteString
        let (status, stdout) = try await Self.run(
            ["resolve", "--json", "--allow-loopback", "--allow-http", "--timeout", "10", url], environment: environment)
        #expect(status == 0, "\(stdout)")
        #expect(stdout.contains("example-app:\\/\\/p\\/1") || stdout.contains("example-app://p/1"), "\(stdout)")
        #expect(proxy.connectionCount == 0)
        #expect(stub.requests.count == 1)
    }
}
