import Foundation
import Testing
@testable import LinkRouting

struct RouteDiagnosticTests {
    @Test func aDuplicatePatternIsReported() {
        let router = LinkRouter()
        router.addRoute("/user/:id") { _ in true }
        let found = router.addRoute("/user/:name") { _ in true }
        #expect(found.map(\.code) == [.duplicate])
        #expect(found.first?.relatedPattern == "/user/:id")
        #expect(router.diagnostics == found)
    }

    @Test func aRouteCoveredByAnEarlierOneIsReportedAsShadowed() {
        let router = LinkRouter()
        router.addRoute("/:section/:id") { _ in true }
        router.addRoute("/files/*", priority: 2) { _ in true }
        #expect(router.addRoute("/user/42") { _ in true }.map(\.code) == [.shadowed])
        #expect(router.addRoute("/files/a/b") { _ in true }.first?.relatedPattern == "/files/*")
        #expect(router.addRoute("/user/42/edit") { _ in true }.isEmpty)
    }

    @Test func aHigherPriorityRouteIsNotShadowed() {
        let router = LinkRouter()
        router.addRoute("/:section/:id") { _ in true }
        #expect(router.addRoute("/user/42", priority: 1) { _ in true }.isEmpty)
    }

    @Test func aLaterHigherPriorityRouteReportsTheRoutesItNowHides() {
        let router = LinkRouter()
        router.addRoute("/user/42") { _ in true }
        router.addRoute("/user/42/edit") { _ in true }
        router.addRoute("/files/a/b") { _ in true }
        let found = router.addRoute("/:section/:id", priority: 5) { _ in true }
        #expect(found.map(\.subject) == ["/user/42"])
        #expect(found.map(\.code) == [.shadowed])
        #expect(found.first?.relatedPattern == "/:section/:id")
        let wildcard = router.addRoute("/files/*", priority: 9) { _ in true }
        #expect(wildcard.map(\.subject) == ["/files/a/b"])
    }

    @Test func shadowingIsPerNamespace() {
        let router = LinkRouter()
        router.addRoute("/:a") { _ in true }
        #expect(router.addRoute("/x", namespace: .scheme("app")) { _ in true }.isEmpty)
    }

    @Test func patternProblemsAreReported() {
        let router = LinkRouter()
        #expect(router.addRoute("/a/:id/b/:id") { _ in true }.map(\.code) == [.conflictingVariableNames])
        #expect(router.addRoute("/x/:JLRoutePattern") { _ in true }.map(\.code) == [.conflictingVariableNames])
        #expect(router.addRoute("/files/*/more") { _ in true }.map(\.code) == [.wildcardNotAtEnd])
        #expect(router.addRoute("/open(/close") { _ in true }.map(\.code) == [.unbalancedParentheses])
        #expect(router.diagnostics.count == 4)
        #expect(router.diagnostics.first?.description.contains("'id' appears twice") == true)
    }

    @Test func aWildcardInTheMiddleIgnoresWhatFollows() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/a/*/c", handler: recorder.handler())
        #expect(try route(router, recorder, "app://a/b/d")?.strings(RouteKey.wildcardComponents) == ["b", "d"])
    }
}

/// Patterns whose registration would hang or exhaust memory without the expansion limits.
struct RoutePatternRobustnessTests {
    /// `/a(/b)(/b)...` with 40 groups: expanding every combination, as JLRoutes does, would build 2^41 lists.
    @Test(.timeLimit(.minutes(1)))
    func aPatternWithFortyOptionalGroupsRegistersAsWrittenWithADiagnostic() {
        let router = LinkRouter()
        let pattern = "/a" + String(repeating: "(/b)", count: 40)
        let found = router.addRoute(pattern) { _ in true }
        #expect(found.map(\.code) == [.tooManyOptionalGroups])
        #expect(!router.canRoute(URL(string: "tests://a/b")!))
        #expect(router.canRoute("tests:///a" + String(repeating: "(/b)", count: 40)))
    }

    /// A table found by `.ci/fuzz route-table`: a pattern of many small groups between required parts, which the
    /// subpath limit keeps from expanding.
    @Test(.timeLimit(.minutes(1)))
    func theFuzzedTableWithManyGroupsLoadsQuickly() throws {
        let json = #"{"namespaces":[{"scheme":"a","routes":[{"pattern":"/x:(m)yx:(o)y,/,,,,,,,,,,,,,,,,,,,,,,,,,,,,(m)yx:(m)y,/,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,(m)yx:(m)y,/,,,,,,,,,(,,,,,.,,,,,,,,,,,,,,,,,,,(m)yx:(m)y,/,,,,,,,,,,`,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,","priority":-0,"handles":false}]}]}"#
        let table = try RouteTable(json: Data(json.utf8))
        let router = table.makeRouter()
        #expect(router.diagnostics.contains { $0.code == .tooManyOptionalGroups })
    }

    /// At the limit a pattern still expands (checked on the expander: registering its 512 routes would hold a
    /// cooperative thread for seconds in a debug build, starving the deadline tests running beside it).
    @Test func tenSubpathsStillExpandAndElevenDoNot() {
        let atLimit = "/a" + String(repeating: "(/b)", count: 9)
        #expect(!OptionalGroupExpander.hasTooManySubpaths(atLimit))
        #expect(OptionalGroupExpander.expand(atLimit).count == 512)
        #expect(OptionalGroupExpander.expand(atLimit).first == "/a" + String(repeating: "/b", count: 9))
        let over = atLimit + "(/b)"
        #expect(OptionalGroupExpander.hasTooManySubpaths(over))
        #expect(OptionalGroupExpander.expand(over).isEmpty)
        let router = LinkRouter()
        #expect(router.addRoute("/a(/b)(/c)") { _ in true }.isEmpty)
        #expect(router.canRoute(URL(string: "tests:///a/c")!))
    }
}
