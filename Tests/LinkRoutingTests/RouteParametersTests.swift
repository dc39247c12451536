import Foundation
import Testing
@testable import LinkRouting

struct RouteParametersTests {
    private func parameters(for string: String, pattern: String) throws -> RouteParameters {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute(pattern, handler: recorder.handler())
        return try #require(try route(router, recorder, string))
    }

    @Test func typedAccessConvertsStrings() throws {
        let found = try parameters(for: "app://orders/7/42?ratio=0.5&ok=true&n=x", pattern: "/orders/:order/:count")
        #expect(found.value("count", as: Int.self) == 42)
        #expect(found.value("order", as: UInt8.self) == 7)
        #expect(found.value("ratio", as: Double.self) == 0.5)
        #expect(found.value("ok", as: Bool.self) == true)
        #expect(found.value("n", as: Int.self) == nil)
        #expect(found.value("missing", as: Int.self) == nil)
    }

    @Test func arraysAreNotSingleStrings() throws {
        let found = try parameters(for: "app://list?id=1&id=2", pattern: "/list")
        #expect(found["id"] == nil)
        #expect(found.strings("id") == ["1", "2"])
        #expect(found.value("id", as: Int.self) == nil)
    }

    @Test func theJLRoutesDictionaryKeepsItsKeysAndTypes() throws {
        let found = try parameters(for: "app://files/a/b?x=1", pattern: "/files/*")
        #expect(found.values == [
            "JLRoutePattern": .string("/files/*"), "JLRouteScheme": .string("JLRoutesGlobalRoutesScheme"),
            "JLRouteWildcardComponents": .strings(["a", "b"]), "JLRouteURL": .string("app://files/a/b?x=1"),
            "x": .string("1"),
        ])
        #expect(found.strings(RouteKey.wildcardComponents) == ["a", "b"])
        #expect(found.url.absoluteString == "app://files/a/b?x=1")
    }

    /// Every key the lazily answered parameters hold, and a few they do not, against the dictionary they build.
    private func expectLookupsAgreeWithTheDictionary(_ parameters: RouteParameters, sourceLocation: SourceLocation = #_sourceLocation) {
        let values = parameters.values
        for key in Array(values.keys) + ["missing", "", RouteKey.wildcardComponents] {
            let expectedString: String? = if case .string(let value)? = values[key] { value } else { nil }
            #expect(parameters[key] == expectedString, "\(key)", sourceLocation: sourceLocation)
            let expectedStrings: [String]? = switch values[key] {
            case .string(let value)?: [value]
            case .strings(let array)?: array
            case nil: nil
            }
            #expect(parameters.strings(key) == expectedStrings, "\(key)", sourceLocation: sourceLocation)
        }
    }

    @Test func lazyParametersEqualTheDictionaryTheyBuild() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/a/:x/:y/:x", handler: recorder.handler())
        router.addRoute("/w/:JLRouteWildcardComponents/*", handler: recorder.handler())
        router.addRoute("/q/:k", handler: recorder.handler())
        let cases: [(String, [String: String])] = [
            ("app://a/1/2/3?x=q&y=q&z=q&z=r&z=s&plus=a+b%2B", [:]),
            ("app://a/1/two%20words/3#x=f&w=f", ["y": "caller", "JLRoutePattern": "no"]),
            ("app://w/v/r1/r%202?JLRouteWildcardComponents=q", [:]),
            ("app://w/v?JLRouteWildcardComponents=q", ["JLRouteWildcardComponents": "caller"]),
            ("app://q/a+b%2B?k=query&k=again&m=1+1", [:]),
            ("app://q/v%23#?k=f", [:]),
        ]
        for decodePlus in [true, false] {
            router.options.decodePlusSymbols = decodePlus
            for (text, callerParameters) in cases {
                recorder.reset()
                #expect(router.route(text, parameters: callerParameters), "\(text)")
                let lazy = try #require(recorder.last)
                expectLookupsAgreeWithTheDictionary(lazy)
                let eager = RouteParameters(values: lazy.values, url: lazy.url)
                expectLookupsAgreeWithTheDictionary(eager)
                #expect(lazy[RouteKey.pattern] == eager[RouteKey.pattern] && lazy[RouteKey.scheme] == eager[RouteKey.scheme])
                #expect(lazy.strings(RouteKey.wildcardComponents) == eager.strings(RouteKey.wildcardComponents))
                // The same URL routed as a `URL` gives equal parameters.
                recorder.reset()
                #expect(router.route(try #require(URL(string: text)), parameters: callerParameters))
                #expect(recorder.last?.values == lazy.values, "\(text)")
                #expect(recorder.last?.url == lazy.url, "\(text)")
            }
        }
    }

    @Test func lazyLookupsFollowTheJLRoutesPrecedence() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/p/:id/:id/*", handler: recorder.handler())
        let text = "app://p/first/second%2Bx/w1/w2?id=query&only=query&n=1&n=2#only=fragment"
        #expect(router.route(text, parameters: ["caller": "c", RouteKey.url: "ignored"]))
        let parameters = try #require(recorder.last)
        #expect(parameters["id"] == "second x")                    // the later variable, `+` decoded
        #expect(parameters.strings("only") == ["query", "fragment"]) // URL query, then the fragment's
        #expect(parameters["only"] == nil)
        #expect(parameters.strings("n") == ["1", "2"])
        #expect(parameters["caller"] == "c")
        #expect(parameters[RouteKey.url] == text)                  // reserved keys beat the caller's
        #expect(parameters.strings(RouteKey.wildcardComponents) == ["w1", "w2"])
        #expect(parameters[RouteKey.pattern] == "/p/:id/:id/*")
        #expect(parameters[RouteKey.scheme] == RouteKey.globalRoutesScheme)
        #expect(parameters.values["id"] == .string("second x"))
    }
}
