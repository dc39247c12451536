import Foundation
import Testing
@testable import LinkRouting

/// Patterns and URLs far deeper than any real one: each is an error or a match, never a stack overflow.
///
/// Each runs on a thread with a 128 KiB stack (see ``onOwnThread(stackSize:_:)``), where the recursive index walks
/// this replaced overflowed from 2 000 components (a frame per component); the walks are loops now. One at a time, so that
/// they take one core, not both, from the deadline tests running beside them.
@Suite(.serialized) struct RouteDepthTests {
    static let depth = 5_000
    /// The old recursive walks overflowed this stack from 2 000 components.
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
            return (router.canRoute(url), router.route(url), router.match(url)?.pattern, router.explain(url)?.matchedPattern)
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
            return (router.canRoute(url), router.explain(url).map { $0.matchedPattern == nil })
        }
        #expect(!canRoute)
        #expect(explained == true)
    }

    @Test func aDuplicateDeepRouteIsReported() async {
        let kinds = await onOwnThread(stackSize: Self.stack) {
            let router = LinkRouter()
            router.addRoute(Self.deepPath(":v")) { _ in true }
            return router.addRoute(Self.deepPath("a")) { _ in true }.map(\.kind)
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
                return nil as RouteTableError.Code?
            } catch {
                return (error as? RouteTableError)?.code
            }
        }
        #expect(code == .invalidJSON)
    }
}

/// A million path segments (2 MB) in a URL, and a pattern of a hundred thousand: an answer or a registration
/// warning, never a signal (issue 19). The pattern's index takes about 270 bytes a segment, linear in the input: a
/// million-segment pattern (measured once: 270 MB peak, 3 s, matched) would distort the memory checks of the soak
/// tests running beside it in this process.
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

    @Test func aDeepPatternMatchesItsURLOrIsRefused() async throws {
        let (warnings, canRoute) = await onOwnThread(stackSize: RouteDepthTests.stack) {
            let router = LinkRouter()
            let pattern = RouteDepthTests.deepPath("a", count: Self.patternSegments)
            let warnings = router.addRoute(pattern) { _ in true }.map(\.kind)
            return (warnings, router.canRoute("myapp:/" + pattern))
        }
        // Either registered and matching, or refused with a warning: both are answers.
        #expect(canRoute || !warnings.isEmpty)
    }
}
