import Foundation
import Testing
@testable import LinkRouting

/// Patterns and URLs far deeper than any real one: each is an error or a match, never a stack overflow.
///
/// Each runs on a thread with a 128 KiB stack (see ``onOwnThread(stackSize:_:)``), where a walk with a stack frame per
/// component would overflow from about 2 000 components; the index walks are loops. One at a time, so that they take
/// one core, not both, from the deadline tests running beside them.
@Suite(.serialized) struct RouteDepthTests {
    static let depth = 5_000
    /// A recursive walk, a frame per component, overflows this stack from about 2 000 components.
    static let stack = 128 << 10

    static func deepPath(_ component: String, count: Int = depth) -> String {
        "/" + Array(repeating: component, count: count).joined(separator: "/")
    }

    @Test func aDeepLiteralRouteMatchesADeepURL() async throws {
        let (canRoute, routed, matched, explained) = await onOwnThread(stackSize: Self.stack) {
            let router = LinkRouter()
            router.addRoute(Self.deepPath("a")) { _ in true }
            // A variable route of the same depth makes the walk branch at every component.
            router.addRoute(Self.deepPath(":v")) { _ in true }
            let url = "myapp:/" + Self.deepPath("a")
            return (router.canRoute(url), router.route(url), router.match(url)?.pattern, router.explain(url)?.match?.expandedPattern)
        }
        #expect(canRoute)
        #expect(routed)
        #expect(matched == Self.deepPath("a"))
        #expect(explained == Self.deepPath("a"))
    }

    @Test func aDeepURLThatMatchesNothingIsExplained() async throws {
        let (canRoute, explained) = await onOwnThread(stackSize: Self.stack) {
            let router = LinkRouter()
            router.addRoute(Self.deepPath("a")) { _ in true }
            router.addRoute(Self.deepPath(":v")) { _ in true }
            let url = "myapp:/" + Self.deepPath("a") + "/b"
            return (router.canRoute(url), router.explain(url).map { $0.match == nil })
        }
        #expect(!canRoute)
        #expect(explained == true)
    }

    @Test func aDuplicateDeepRouteIsReported() async {
        let kinds = await onOwnThread(stackSize: Self.stack) {
            let router = LinkRouter()
            router.addRoute(Self.deepPath(":v")) { _ in true }
            return router.addRoute(Self.deepPath("a")) { _ in true }.map(\.code)
        }
        #expect(kinds == [.shadowed])
    }

    @Test func aURLIsGeneratedForADeepRoute() async throws {
        let url = await onOwnThread(stackSize: Self.stack) {
            let router = LinkRouter()
            router.addRoute(Self.deepPath(":v", count: 2) + Self.deepPath("a"), name: "deep") { _ in true }
            return try? router.url(forRoute: "deep", parameters: ["v": "1"], scheme: "myapp").absoluteString
        }
        #expect(url?.hasSuffix("/a/a") == true)
    }

    @Test func aRouteTableNestedDeeplyIsAnErrorNotACrash() async {
        let code = await onOwnThread(stackSize: Self.stack) {
            let json = #"{"namespaces": "# + String(repeating: "[", count: Self.depth) + String(repeating: "]", count: Self.depth) + "}"
            do {
                _ = try RouteTable(json: Data(json.utf8))
                return nil as RouteError.Code?
            } catch {
                return (error as? RouteError)?.code
            }
        }
        #expect(code == .invalidJSON)
    }
}

/// A million path segments (2 MB) in a URL, and a pattern of a hundred thousand: an answer, never a signal. The
/// pattern stays at a hundred thousand segments: a million-segment one takes hundreds of megabytes in a debug build,
/// which the memory checks of the tests running beside it in this process would see.
@Suite(.serialized) struct MillionSegmentTests {
    static let million = 1_000_000
    static let patternSegments = 100_000

    @Test func aMillionSegmentURLIsAnsweredByAnOrdinaryTable() async throws {
        let (canRoute, matched) = await onOwnThread(stackSize: RouteDepthTests.stack) {
            let router = LinkRouter()
            router.addRoute("/products/:id") { _ in true }
            router.addRoute("/files/*") { _ in true }
            let deep = RouteDepthTests.deepPath("a", count: Self.million)
            let wildcard = "myapp:/" + "/files" + deep
            return (router.canRoute("myapp:/" + deep), router.match(wildcard)?.pattern)
        }
        #expect(!canRoute)
        #expect(matched == "/files/*")
    }

    @Test func aHundredThousandSegmentPatternIsRegisteredAndMatchesItsURL() async throws {
        let (warnings, canRoute, tooLong) = await onOwnThread(stackSize: RouteDepthTests.stack) {
            let router = LinkRouter()
            let pattern = RouteDepthTests.deepPath("a", count: Self.patternSegments)
            let warnings = router.addRoute(pattern) { _ in true }.map(\.code)
            return (warnings, router.canRoute("myapp:/" + pattern), router.canRoute("myapp:/" + pattern + "/a"))
        }
        // Far within the index's limits: registered without a warning, and it matches its URL and no longer one.
        #expect(warnings.isEmpty)
        #expect(canRoute)
        #expect(!tooLong)
    }
}
