import Foundation
import Testing
@testable import LinkRouting
#if canImport(Glibc)
import Glibc

/// A compiled pattern costs a small constant a segment (issue 19): 8 bytes a component, a 32-byte node, a 24-byte
/// edge, its slots and key bytes, about 80 bytes in all (it was about 230: an array per literal, 56-byte nodes,
/// 48-byte edges). Measured as the growth of this process's resident set (`VmRSS`, as the soak test reads it) from
/// a pattern of N segments to one of 2N, so the process's own size cancels out; the smallest of three tries, since a
/// test running beside this one can only add to the growth.
@Suite(.serialized) struct RouteMemoryTests {
    static let segments = 200_000

    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
    }

    /// How much the resident set grows while a router indexes one pattern of `count` distinct literal and variable
    /// segments (the pattern's text is made before the first reading).
    static func growth(segments count: Int) -> Int? {
        let pattern = "/" + (0..<count).map { $0 % 4 == 3 ? ":v\($0)" : "s\($0 % 1000)" }.joined(separator: "/")
        guard let before = residentBytes() else { return nil }
        let router = LinkRouter()
        router.addRoute(pattern) { _ in true }
        guard let after = residentBytes() else { return nil }
        // Kept alive past the second reading.
        withExtendedLifetime(router) {}
        return after - before
    }

    @Test func aLongPatternCostsLessThan128BytesASegment() async throws {
        let perSegment = await onOwnThread { () -> Int? in
            var best: Int?
            for _ in 0..<3 {
                guard let small = Self.growth(segments: Self.segments),
                      let large = Self.growth(segments: 2 * Self.segments) else { return nil }
                best = min(best ?? .max, (large - small) / Self.segments)
            }
            return best
        }
        let bytes = try #require(perSegment)
        // AddressSanitizer keeps freed memory resident and adds shadow memory per allocation, and ThreadSanitizer's
        // shadow grows with every allocation of the tests running beside this one (174 B a segment in a parallel
        // TSan run): the bound says nothing there.
        if dlsym(nil, "__asan_init") == nil, dlsym(nil, "__tsan_init") == nil {
            #expect(bytes < 128, "\(bytes) bytes a segment")
        }
    }
}
#endif

/// The index's 32-bit numbers are a limit a route is refused at, with a warning, not a crash.
struct RouteIndexLimitTests {
    @Test func aRoutePastTheIndexLimitIsRefusedWithAWarning() {
        // 16 nodes, edges and literal bytes: room for a few short routes.
        let router = LinkRouter(indexLimit: 16)
        #expect(router.addRoute("/a/:id") { _ in true }.isEmpty)
        let refused = router.addRoute("/" + Array(repeating: "bb", count: 20).joined(separator: "/")) { _ in true }
        #expect(refused.map(\.kind) == [.tooLarge])
        #expect(refused.first?.message.contains("is not registered: the index of") == true)
        #expect(router.canRoute("myapp://a/1"))
        #expect(!router.canRoute("myapp:/" + "/" + Array(repeating: "bb", count: 20).joined(separator: "/")))
        // A route that still fits is registered after the refusal.
        #expect(router.addRoute("/c") { _ in true }.isEmpty)
        #expect(router.canRoute("myapp://c"))
    }
}
