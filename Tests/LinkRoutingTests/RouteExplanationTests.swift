import Foundation
import Testing
@testable import LinkRouting

struct RouteExplanationTests {
    @Test func aMatchingRouteIsNamedWithoutCallingHandlers() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/user/view/:userID", handler: recorder.handler())
        let explanation = router.explain(try #require(URL(string: "myapp://user/view/joel")))
        #expect(explanation.matchedPattern == "/user/view/:userID")
        #expect(explanation.matchedNamespace == .global)
        #expect(explanation.pathComponents == ["user", "view", "joel"])
        #expect(recorder.all.isEmpty)
    }

    @Test func withoutAMatchTheNearestRoutesSayWhereTheyStop() throws {
        let router = LinkRouter()
        router.addRoute("/user/view/:userID") { _ in true }
        router.addRoute("/user/edit/:userID/:field") { _ in true }
        router.addRoute("/settings") { _ in true }
        let explanation = router.explain(try #require(URL(string: "myapp://user/edit/42")))
        #expect(explanation.matchedPattern == nil)
        #expect(explanation.nearMisses.map(\.pattern) == ["/user/edit/:userID/:field", "/user/view/:userID", "/settings"])
        #expect(explanation.nearMisses.first?.reason == "the URL has 3 components, the pattern needs 4")
        #expect(explanation.nearMisses.dropFirst().first?.reason == "component 1 is 'edit', the pattern expects 'view'")
        #expect(explanation.description.contains("no route matches; nearest:"))
    }

    @Test func aDisabledGroupIsGivenAsTheReason() throws {
        let router = LinkRouter()
        router.addRoute("/invites/:code", group: "invites") { _ in true }
        router.setGroup("invites", enabled: false)
        let explanation = router.explain(try #require(URL(string: "app://invites/X")))
        #expect(explanation.nearMisses.first?.reason == "its group 'invites' is disabled")
    }

    @Test func aHostMismatchIsGivenAsTheReason() throws {
        let router = LinkRouter()
        router.addRoute("https://www.example.com/invites/:code") { _ in true }
        let explanation = router.explain(try #require(URL(string: "https://shop.example.com/invites/X")))
        #expect(explanation.nearMisses.first?.reason.contains("are not 'https://www.example.com'") == true)
    }

    @Test func aStringIsExplainedAsWritten() throws {
        let router = LinkRouter()
        router.addRoute("/literal/%zz") { _ in true }
        #expect(router.explain("app://literal/%zz")?.matchedPattern == "/literal/%zz")
        #expect(router.explain("http://[::1") == nil)
    }

    @Test func theSchemeNamespaceIsReported() throws {
        let router = LinkRouter()
        router.addNamespace("app")
        let explanation = router.explain(try #require(URL(string: "app://x")))
        #expect(explanation.namespace == .scheme("app"))
        #expect(explanation.nearMisses.isEmpty)
    }
}
