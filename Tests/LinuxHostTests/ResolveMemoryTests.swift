import Foundation
import Testing
import UniversalLinkKitTesting
#if canImport(Glibc)

/// The resolving process's memory is bounded by the cap whatever the answer: `linux-host resolve` (on its default
/// transport, `CurlTransport` on Linux) against hostile stub answers, its peak RSS measured (``PeakMemory``).
struct ResolveMemoryTests {
    /// Runs `linux-host resolve` on `url` and measures the child's peak resident set.
    static func resolve(_ url: URL) async throws -> PeakMemory.Run {
        try await PeakMemory.run(["resolve", "--json", "--allow-loopback", "--allow-http", "--timeout", "20", url.absoluteString])
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
        #expect(stub.requests.count == attempts)
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
            #expect(stub.requests.count == 1, "\(name)")
        }
    }
}
#endif
