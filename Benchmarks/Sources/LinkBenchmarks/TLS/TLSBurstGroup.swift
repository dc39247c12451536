import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOSSL
import UniversalLinkKit
import UniversalLinkKitTesting

/// Group `tls`: a burst of 1 000 distinct tracking links over TLS on loopback, to the Response Handler stub behind
/// the testing kit's TLS front (a root and a leaf made for the run), over HTTP/1.1 (`burst_1000_h1`) and HTTP/2 by
/// ALPN (`burst_1000_h2`), by three clients: `CurlTransport` trusting the root (`UniversalLinkKit`), `URLSession`
/// (FoundationNetworking) and async-http-client, each a fresh client per burst with 16 connections per host at
/// most, all 1 000 requests handed in at once. Rounds interleave the three.
///
/// FoundationNetworking trusts only the system's roots on Linux, so its burst runs in a child process
/// (`--tls-urlsession-child`) whose private mount namespace puts the run's root in place of the system bundle
/// (`unshare -m`, root only); the parent counts the front's handshakes around it as for the others.
///
/// Reported per link, with `requests_per_second`, `p50_ms` / `p99_ms` (each request from the burst's start to its
/// answer) and `handshakes` (TLS handshakes the front completed during the burst).
enum TLSBurstGroup {
    static let burstSize = 1_000
    static let perHost = 16

    /// One burst's figures.
    struct Burst: Sendable {
        var elapsed: Duration
        var latencies: [Duration]
        var handshakes: Int
        var failures: Int
    }

    static func run(rounds: Int) async throws -> [Measurement] {
        var measurements: [Measurement] = []
        for http2 in [false, true] {
            let pki = try TestPKI()
            let stub = try ResponseHandlerStub(links: [
                "/pub/acc": .init(webLinkUrl: "https://www.example.com/products/1234", mobileDeepLinkUrl: "example-app://products/1234"),
            ])
            var configuration = TLSFront.Configuration(certificate: try pki.issue(.clean))
            configuration.offersHTTP2 = http2
            let front = try TLSFront(upstream: stub, configuration: configuration)
            defer {
                front.shutdown()
                stub.shutdown()
            }
            let urls = (0..<burstSize).map { front.url("/pub/acc?_ri_=\($0)") }
            var bursts: [String: [Burst]] = [:]
            for _ in 0..<max(1, rounds) {
                for subject in ["UniversalLinkKit", "URLSession", "async-http-client"] {
                    let before = front.handshakeCount
                    var burst: Burst
                    switch subject {
                    case "UniversalLinkKit": burst = try await ours(urls, rootFile: pki.rootFile)
                    case "URLSession": burst = try urlSessionInChild(port: front.port, rootFile: pki.rootFile)
                    default: burst = try await asyncHTTPClient(urls, rootFile: pki.rootFile, http2: http2)
                    }
                    burst.handshakes = front.handshakeCount - before
                    bursts[subject, default: []].append(burst)
                }
            }
            for subject in ["UniversalLinkKit", "URLSession", "async-http-client"] {
                let runs = (bursts[subject] ?? []).sorted { $0.elapsed < $1.elapsed }
                guard !runs.isEmpty else { continue }
                let median = runs[runs.count / 2]
                let perLink = nanoseconds(median.elapsed) / Double(burstSize)
                let quartiles = (nanoseconds(runs[runs.count / 4].elapsed), nanoseconds(runs[(runs.count * 3) / 4].elapsed))
                let latencies = median.latencies.sorted()
                measurements.append(Measurement(
                    group: "tls", caseName: http2 ? "burst_1000_h2" : "burst_1000_h1", size: burstSize, subject: subject,
                    nsPerOp: perLink, spread: (quartiles.1 - quartiles.0) / nanoseconds(median.elapsed),
                    extras: [
                        ("requests_per_second", Double(burstSize) / (nanoseconds(median.elapsed) / 1e9)),
                        ("p50_ms", percentile(latencies, 0.50)), ("p99_ms", percentile(latencies, 0.99)),
                        ("handshakes", Double(median.handshakes)), ("failures", Double(median.failures)),
                    ]))
            }
        }
        return measurements
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }

    static func percentile(_ sorted: [Duration], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
        return nanoseconds(sorted[max(0, index)]) / 1e6
    }

    /// Every URL at once through `send`, each latency from the burst's start.
    static func burst(_ urls: [URL], _ send: @escaping @Sendable (URL) async throws -> Void) async -> Burst {
        let start = ContinuousClock.now
        let results = await withTaskGroup(of: Duration?.self) { group in
            for url in urls {
                group.addTask {
                    do {
                        try await send(url)
                        return ContinuousClock.now - start
                    } catch {
                        return nil
                    }
                }
            }
            return await group.reduce(into: [Duration?]()) { $0.append($1) }
        }
        let latencies = results.compactMap { $0 }
        return Burst(
            elapsed: ContinuousClock.now - start, latencies: latencies, handshakes: 0, failures: urls.count - latencies.count)
    }

    static let headers = ["Accept": "application/json", "User-Agent": "ResponsysPubWebResolver (CPU iPhone OS like Mac OS X)"]

    static func ours(_ urls: [URL], rootFile: String) async throws -> Burst {
        guard let transport = CurlTransport.make(configuration: .init(maximumConcurrentRequestsPerHost: perHost, caFile: rootFile))
        else { throw CocoaError(.featureUnsupported) }
        defer { transport.shutdown() }
        return await burst(urls) { url in
            let request = TransportRequest(url: url, headerFields: headers, allowsLocalAddresses: true, deadline: .now + .seconds(60))
            let response = try await transport.send(request, maxBodyBytes: 64 * 1024)
            guard response.statusCode == 200 else { throw CocoaError(.fileReadCorruptFile) }
        }
    }

    static func asyncHTTPClient(_ urls: [URL], rootFile: String, http2: Bool) async throws -> Burst {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(rootFile)
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: perHost)
        configuration.httpVersion = http2 ? .automatic : .http1Only
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let result = await burst(urls) { url in
            var request = HTTPClientRequest(url: url.absoluteString)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            let response = try await client.execute(request, timeout: .seconds(60))
            _ = try await response.body.collect(upTo: 64 * 1024)
            guard response.status.code == 200 else { throw CocoaError(.fileReadCorruptFile) }
        }
        try await client.shutdown()
        return result
    }

    /// Runs this executable's URLSession burst in a child whose mount namespace trusts `rootFile` as the system
    /// bundle.
    static func urlSessionInChild(port: UInt16, rootFile: String) throws -> Burst {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        let me = CommandLine.arguments[0].hasPrefix("/")
            ? CommandLine.arguments[0] : FileManager.default.currentDirectoryPath + "/" + CommandLine.arguments[0]
        process.arguments = [
            "-m", "sh", "-c",
            "mount --bind \"$1\" /etc/ssl/certs/ca-certificates.crt && exec \"$2\" --tls-urlsession-child \"$3\"",
            "sh", rootFile, me, String(port),
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // Line 1: elapsed ns and failures; then one latency in ns per line.
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard process.terminationStatus == 0, let first = lines.first else { throw CocoaError(.executableLoad) }
        let head = first.split(separator: " ").compactMap { Int64($0) }
        guard head.count == 2 else { throw CocoaError(.executableLoad) }
        return Burst(
            elapsed: .nanoseconds(head[0]), latencies: lines.dropFirst().compactMap { Int64($0) }.map { .nanoseconds($0) },
            handshakes: 0, failures: Int(head[1]))
    }

    /// The child's side: a fresh session (16 connections per host), the burst, the figures on standard output.
    static func urlSessionChild(port: String) async -> Never {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = perHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        let urls = (0..<burstSize).compactMap { URL(string: "https://127.0.0.1:\(port)/pub/acc?_ri_=\($0)") }
        let result = await burst(urls) { url in
            var request = URLRequest(url: url)
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let (_, response) = try await session.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw CocoaError(.fileReadCorruptFile) }
        }
        session.invalidateAndCancel()
        var text = "\(Int64(nanoseconds(result.elapsed))) \(result.failures)\n"
        for latency in result.latencies { text += "\(Int64(nanoseconds(latency)))\n" }
        FileHandle.standardOutput.write(Data(text.utf8))
        exit(0)
    }
}
