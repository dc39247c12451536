import Foundation
import Testing
import UniversalLinkKitTesting
#if canImport(Glibc)

/// Loading a route table costs a small constant times its size (issue 19): `linux-host route` reads a table of
/// 50 000 routes whose last route is refused, so the child reads the whole table and exits before building a
/// router, and its peak resident set (``PeakMemory``) is compared with a one-route table's.
///
/// Over Foundation's `JSONSerialization` the growth was about 3 KB a route of `{"pattern": "/p1/:id/x"}` (27 bytes
/// of JSON), 150 MB here; the byte-level reader needs the text (twice: the file's bytes and their `Data`) and the
/// table, about 190 bytes a route.
struct RouteTableMemoryTests {
    static let routeCount = 50_000

    /// A table of `count` routes, then one with an empty pattern that `RouteTable(json:)` refuses.
    static func table(routes count: Int) -> String {
        let routes = (0..<count).map { #"{"pattern": "/p\#($0)/:id/x"}"# }.joined(separator: ",\n")
        return #"{"namespaces": [{"scheme": null, "routes": ["# + routes + (count > 0 ? ",\n" : "") + #"{"pattern": ""}]}]}"#
    }

    static func load(_ text: String) async throws -> PeakMemory.Run {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await PeakMemory.run(["route", "--table", path, "myapp://p1/2/x"])
    }

    @Test func loadingATableGrowsThePeakByLessThan1KiBARoute() async throws {
        // The small table's child lives a few milliseconds: measured until sampled, as the resolve memory test does.
        var baseline = try await Self.load(Self.table(routes: 1))
        var attempts = 1
        while baseline.samples == 0, attempts < 5 {
            baseline = try await Self.load(Self.table(routes: 1))
            attempts += 1
        }
        #expect(baseline.samples > 0)
        let large = try await Self.load(Self.table(routes: Self.routeCount))
        #expect(large.samples > 0)
        // Exit status 2: the table was read to its last route and refused there, so no router was built.
        #expect((baseline.status >> 8) & 0xFF == 2)
        #expect((large.status >> 8) & 0xFF == 2)
        let bytesPerRoute = (large.peakKiB - baseline.peakKiB) * 1024 / Self.routeCount
        // Sanitizers keep freed memory resident and add shadow memory per allocation: the bound says nothing there.
        if !Sanitizer.isActive {
            #expect(bytesPerRoute < 1024, "peak \(large.peakKiB) KiB against \(baseline.peakKiB) KiB: \(bytesPerRoute) bytes a route")
        }
    }
}
#endif
