import Foundation
import Testing
import UniversalLinkKitTesting
#if canImport(Glibc)

/// Loading a route table costs a small constant times its size: `linux-host route` reads a table of
/// 50 000 routes whose last route is refused, so the child reads the whole table and exits before building a
/// router, and its peak resident set (``PeakMemory``) is compared with a one-route table's.
///
/// The reader needs the text (the file's bytes, their `Data` and the document's copy), 20 bytes a JSON value and the
/// table, never an object graph of the JSON (which would cost kilobytes a route of `{"pattern": "/p1/:id/x"}`).
/// Routing through the table (router built, one URL routed) adds the router: its index and compiled patterns.
struct RouteTableMemoryTests {
    static let routeCount = 50_000

    /// A table of `count` routes, then (unless `routable`) one with an empty pattern that `RouteTable(json:)` refuses.
    static func table(routes count: Int, routable: Bool = false) -> String {
        var routes = (0..<count).map { #"{"pattern": "/p\#($0)/:id/x"}"# }
        if !routable { routes.append(#"{"pattern": ""}"#) }
        return #"{"namespaces": [{"scheme": null, "routes": ["# + routes.joined(separator: ",\n") + "]}]}"
    }

    static func load(_ text: String) async throws -> PeakMemory.Run {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await PeakMemory.run(["route", "--table", path, "myapp://p1/2/x"])
    }

    /// The one-route table's run: the largest peak of three sampled runs. Its child lives a few milliseconds, and a
    /// run sampled only early (before the runtime and Foundation were loaded) reads a peak megabytes too low, which
    /// the per-route figure would then charge to the table.
    static func baseline(routable: Bool) async throws -> PeakMemory.Run {
        var runs: [PeakMemory.Run] = []
        var attempts = 0
        while runs.count < 3, attempts < 10 {
            let run = try await Self.load(Self.table(routes: 1, routable: routable))
            if run.samples > 0 { runs.append(run) }
            attempts += 1
        }
        return try #require(runs.max { $0.peakKiB < $1.peakKiB }, "no run of the one-route table was sampled")
    }

    @Test func loadingATableGrowsThePeakByLessThan384BytesARoute() async throws {
        let baseline = try await Self.baseline(routable: false)
        #expect(baseline.samples > 0)
        let large = try await Self.load(Self.table(routes: Self.routeCount))
        #expect(large.samples > 0)
        // Exit status 2: the table was read to its last route and refused there, so no router was built.
        #expect((baseline.status >> 8) & 0xFF == 2)
        #expect((large.status >> 8) & 0xFF == 2)
        let bytesPerRoute = (large.peakKiB - baseline.peakKiB) * 1024 / Self.routeCount
        // Sanitizers keep freed memory resident and add shadow memory per allocation: the bound says nothing there.
        if !Sanitizer.isActive {
            #expect(bytesPerRoute < 384, "peak \(large.peakKiB) KiB against \(baseline.peakKiB) KiB: \(bytesPerRoute) bytes a route")
        }
    }

    @Test func routingThroughATableGrowsThePeakByLessThan800BytesARoute() async throws {
        let baseline = try await Self.baseline(routable: true)
        #expect(baseline.samples > 0)
        let large = try await Self.load(Self.table(routes: Self.routeCount, routable: true))
        #expect(large.samples > 0)
        // Exit status 0: the router was built and `myapp://p1/2/x` routed.
        #expect((large.status >> 8) & 0xFF == 0)
        let bytesPerRoute = (large.peakKiB - baseline.peakKiB) * 1024 / Self.routeCount
        if !Sanitizer.isActive {
            #expect(bytesPerRoute < 800, "peak \(large.peakKiB) KiB against \(baseline.peakKiB) KiB: \(bytesPerRoute) bytes a route")
        }
    }
}
#endif
