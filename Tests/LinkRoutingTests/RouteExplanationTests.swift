import Foundation
import Testing
import LinkRouting

/// `explain` names the route a URL matches without calling a handler, or the nearest routes and where each stops.
struct RouteExplanationTests {
    @Test func aMatchingRouteIsNamedWithoutCallingHandlers() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/user/view/:userID", handler: recorder.handler())
        let explanation = try #require(router.explain("myapp://user/view/joel"))
        #expect(explanation.match?.pattern == "/user/view/:userID")
        #expect(explanation.match?.namespace == .global)
        #expect(explanation.match?.parameters == ["userID": "joel"])
        #expect(explanation.pathComponents == ["user", "view", "joel"])
        #expect(explanation.description.hasSuffix("matches /user/view/:userID (JLRoutesGlobalRoutesScheme)"))
        #expect(recorder.all.isEmpty)
    }

    @Test func withoutAMatchTheNearestRoutesSayWhereTheyStop() throws {
        let router = LinkRouter()
        router.addRoute("/user/view/:userID") { _ in true }
        router.addRoute("/user/edit/:userID/:field") { _ in true }
        router.addRoute("/settings") { _ in true }
        let explanation = try #require(router.explain("myapp://user/edit/42"))
        #expect(explanation.match == nil)
        #expect(explanation.nearMisses == [
            "/user/edit/:userID/:field (JLRoutesGlobalRoutesScheme): the URL has 3 components, the pattern needs 4",
            "/user/view/:userID (JLRoutesGlobalRoutesScheme): component 1 is 'edit', the pattern expects 'view'",
            "/settings (JLRoutesGlobalRoutesScheme): component 0 is 'user', the pattern expects 'settings'",
        ])
        #expect(explanation.description.contains("no route matches; nearest:"))
    }

    @Test func aDisabledGroupIsGivenAsTheReason() throws {
        let router = LinkRouter()
        router.addRoute("/invites/:code", group: "invites") { _ in true }
        router.setGroup("invites", enabled: false)
        let explanation = try #require(router.explain("app://invites/X"))
        #expect(explanation.nearMisses.first?.hasSuffix(": its group 'invites' is disabled") == true)
    }

    @Test func aHostMismatchIsGivenAsTheReason() throws {
        let router = LinkRouter()
        router.addRoute("https://www.example.com/invites/:code") { _ in true }
        let explanation = try #require(router.explain("https://shop.example.com/invites/X"))
        #expect(explanation.nearMisses.first?.contains("are not 'https://www.example.com'") == true)
    }

    @Test func aStringIsExplainedAsWritten() throws {
        let router = LinkRouter()
        router.addRoute("/literal/%zz") { _ in true }
        #expect(router.explain("app://literal/%zz")?.match?.pattern == "/literal/%zz")
        #expect(router.explain("http://[::1") == nil)
    }

    @Test func aSchemeNamespaceWithoutRoutesSaysSo() throws {
        let router = LinkRouter()
        router.addNamespace("app")
        let explanation = try #require(router.explain("app://x"))
        #expect(explanation.nearMisses.isEmpty)
        #expect(explanation.description == """
            app://x -> namespace app, components ["x"]
            no route matches: the namespace has no enabled routes
            """)
    }
}
