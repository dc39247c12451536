import Foundation
import Testing
@testable import LinkRouting

/// Patterns and URLs far deeper than any real one: each is an error or a match, never a stack overflow.
///
/// The depth used (100 000 components) overflowed the stack of a test thread in the recursive walks this replaced.
struct RouteDepthTests {
    static let depth = 100_000

    static func deepPath(_ component: String, count: Int = depth) -> String {
        "/" + Array(repeating: component, count: count).joined(separator: "/")
    }

    @Test func aDeepLiteralRouteMatchesADeepURL() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute(Self.deepPath("a"), handler: recorder.handler())
        // A variable route of the same depth makes the walk branch at every component.
        router.addRoute(Self.deepPath(":v"), handler: recorder.handler())
        let url = "myapp:/" + Self.deepPath("a")
        #expect(router.canRoute(url))
        #expect(router.route(url))
        #expect(router.match(url)?.pattern == Self.deepPath("a"))
        #expect(router.explain(url)?.matchedPattern == Self.deepPath("a"))
    }

    @Test func aDeepURLThatMatchesNothingIsExplained() throws {
        let router = LinkRouter()
        router.addRoute(Self.deepPath("a"), handler: { _ in true })
        router.addRoute(Self.deepPath(":v"), handler: { _ in true })
        let url = "myapp:/" + Self.deepPath("a") + "/b"
        #expect(!router.canRoute(url))
        let explanation = try #require(router.explain(url))
        #expect(explanation.matchedPattern == nil)
    }

    @Test func aDuplicateDeepRouteIsReported() {
        let router = LinkRouter()
        router.addRoute(Self.deepPath(":v"), handler: { _ in true })
        let diagnostics = router.addRoute(Self.deepPath("a"), handler: { _ in true })
        #expect(diagnostics.map(\.kind) == [.shadowed])
    }

    @Test func aURLIsGeneratedForADeepRoute() throws {
        let router = LinkRouter()
        router.addRoute(Self.deepPath(":v", count: 2) + Self.deepPath("a"), name: "deep", handler: { _ in true })
        let url = try router.url(forRoute: "deep", parameters: ["v": "1"], scheme: "myapp")
        #expect(url.absoluteString.hasSuffix("/a/a"))
    }

    @Test func aRouteTableNestedDeeplyIsAnErrorNotACrash() {
        let json = #"{"namespaces": "# + String(repeating: "[", count: Self.depth) + String(repeating: "]", count: Self.depth) + "}"
        let error = #expect(throws: RouteTableError.self) { try RouteTable(json: Data(json.utf8)) }
        #expect(error?.code == .invalidJSON)
    }
}
