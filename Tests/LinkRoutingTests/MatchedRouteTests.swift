import Foundation
import Testing
@testable import LinkRouting

/// `match` names the route JLRoutes would try first without calling anything; `routeReturningMatch` names the route
/// whose handler accepted the URL.
struct MatchedRouteTests {
    @Test func matchReturnsThePatternNamespaceAndDecodedParametersWithoutCallingAHandler() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/products/:id", name: "product", handler: recorder.handler())
        let url = try #require(URL(string: "myapp://products/42%20b?ref=mail%21&x=1"))
        let matched = try #require(router.match(url))
        #expect(matched.pattern == "/products/:id")
        #expect(matched.expandedPattern == "/products/:id")
        #expect(matched.namespace.name == "JLRoutesGlobalRoutesScheme")
        #expect(matched.namespace == .global)
        #expect(matched.name == "product")
        #expect(matched.parameters == ["id": "42 b", "ref": "mail!", "x": "1"])
        #expect(matched.wildcardComponents == nil)
        #expect(recorder.all.isEmpty)
    }

    @Test func matchFollowsTheRankingEvenWhenThatHandlerWouldDecline() throws {
        let router = LinkRouter()
        router.addRoute("/a/:x") { _ in false }
        router.addRoute("/a/:y", priority: -1) { _ in true }
        #expect(router.match("myapp://a/1")?.pattern == "/a/:x")
        #expect(router.routeReturningMatch("myapp://a/1")?.pattern == "/a/:y")
        #expect(router.routeReturningMatch("myapp://a/1")?.parameters == ["y": "1"])
    }

    @Test func optionalGroupsReportTheDeclaredPatternAndTheExpansion() throws {
        let router = LinkRouter()
        router.addRoute("/path/:thing(/new)(/:id)") { _ in true }
        let matched = try #require(router.match("app://path/a/new"))
        #expect(matched.pattern == "/path/:thing(/new)(/:id)")
        #expect(matched.expandedPattern == "/path/:thing/new")
        #expect(matched.parameters == ["thing": "a"])
    }

    @Test func schemeNamespacesAndTheirFallbackAreReported() throws {
        let router = LinkRouter()
        router.addRoute("/x/:v", namespace: .scheme("tests")) { _ in true }
        router.addRoute("/y/:v") { _ in true }
        router.addNamespace("tests", fallsBackToGlobalRoutes: true)
        #expect(router.match("tests://x/1")?.namespace.name == "tests")
        #expect(router.match("tests://y/1")?.namespace.name == "JLRoutesGlobalRoutesScheme")
        #expect(router.match("other://x/1") == nil)
    }

    @Test func aRepeatedQueryItemKeepsItsLastValueAndARouteVariableWins() throws {
        let router = LinkRouter()
        router.addRoute("/t/:tag") { _ in true }
        let matched = try #require(router.match("app://t/path?tag=a&n=1&n=2&n=3#n=4"))
        #expect(matched.parameters == ["tag": "path", "n": "4"])
    }

    @Test func wildcardComponentsAreReportedApartAndHostAwareRoutesKeepTheirHost() throws {
        let router = LinkRouter()
        router.addRoute("https://www.example.com/files/*") { _ in true }
        let matched = try #require(router.match("https://www.example.com/files/a/b%20c"))
        #expect(matched.pattern == "https://www.example.com/files/*")
        #expect(matched.wildcardComponents == ["a", "b%20c"])
        #expect(matched.parameters.isEmpty)
    }

    @Test func routeReturningMatchCallsHandlersAsRouteDoesAndCarriesTheCallersParameters() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/p/:id", handler: recorder.handler())
        let url = try #require(URL(string: "app://p/7?id=9"))
        let matched = try #require(router.routeReturningMatch(url, parameters: ["who": "me"]))
        #expect(matched.parameters == ["id": "7", "who": "me"])
        #expect(recorder.all.count == 1)
        #expect(recorder.last?["id"] == "7")
    }

    @Test func routeReturningMatchIsNilAndCallsTheUnmatchedHandlerWhenNothingAccepts() throws {
        let router = LinkRouter()
        router.addRoute("/p/:id") { _ in false }
        let unmatched = Recorder()
        router.setUnmatchedURLHandler { _, _ in _ = unmatched.handler()(RouteParameters(values: [:], url: URL(fileURLWithPath: "/"))) }
        #expect(router.routeReturningMatch("app://p/7") == nil)
        #expect(unmatched.all.count == 1)
        #expect(router.routeReturningMatch("not a url at all %") == nil)
    }

    @Test func disabledGroupsAreSkippedByMatch() throws {
        let router = LinkRouter()
        router.addRoute("/a", group: "g") { _ in true }
        #expect(router.match("app://a") != nil)
        router.setGroup("g", enabled: false)
        #expect(router.match("app://a") == nil)
    }
}
