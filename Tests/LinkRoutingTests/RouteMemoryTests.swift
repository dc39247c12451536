import Foundation
import Testing
@testable import LinkRouting

/// A registered pattern costs a small constant a segment: 8 bytes a component, a 32-byte node, a 24-byte edge, its
/// hash slots and key bytes, its text, about 110 bytes in all with the buffers' spare capacity. Counted as the bytes
/// the router's buffers take, from a pattern of N segments to one of 2N so that fixed costs cancel: a figure of the
/// router alone, the same in every run, whatever the tests beside it allocate.
struct RouteMemoryTests {
    static let segments = 200_000

    /// The bytes the router's index and compiled patterns take after it registers one pattern of `count` distinct
    /// literal and variable segments.
    static func allocatedBytes(segments count: Int) -> Int {
        let pattern = "/" + (0..<count).map { $0 % 4 == 3 ? ":v\($0)" : "s\($0 % 1000)" }.joined(separator: "/")
        let router = LinkRouter()
        #expect(router.addRoute(pattern) { _ in true }.isEmpty)
        let state = router.snapshot()
        return state.global.index.allocatedBytes + state.entries.reduce(0) { $0 + $1.compiled.allocatedBytes }
    }

    @Test func aLongPatternCostsLessThan128BytesASegment() {
        let small = Self.allocatedBytes(segments: Self.segments)
        let large = Self.allocatedBytes(segments: 2 * Self.segments)
        let perSegment = (large - small) / Self.segments
        #expect(perSegment < 128, "\(perSegment) bytes a segment")
        #expect(perSegment > 40, "\(perSegment) bytes a segment: the count misses the index's buffers")
    }
}

/// The index's 32-bit numbers are a limit a route is refused at, with a warning, not a crash.
struct RouteIndexLimitTests {
    @Test func aRoutePastTheIndexLimitIsRefusedWithAWarning() {
        // 16 nodes, edges and literal bytes: room for a few short routes.
        let router = LinkRouter(indexLimit: 16)
        #expect(router.addRoute("/a/:id") { _ in true }.isEmpty)
        let refused = router.addRoute("/" + Array(repeating: "bb", count: 20).joined(separator: "/")) { _ in true }
        #expect(refused.map(\.code) == [.tooLarge])
        #expect(refused.first?.message.contains("is not registered: the index of") == true)
        #expect(router.canRoute("myapp://a/1"))
        #expect(!router.canRoute("myapp:/" + "/" + Array(repeating: "bb", count: 20).joined(separator: "/")))
        // A route that still fits is registered after the refusal.
        #expect(router.addRoute("/c") { _ in true }.isEmpty)
        #expect(router.canRoute("myapp://c"))
    }
}
