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
        let id = UUID()
        let found = try parameters(for: "app://orders/\(id.uuidString)/42?ratio=0.5&ok=true&n=x", pattern: "/orders/:uuid/:count")
        #expect(found.value("count", as: Int.self) == 42)
        #expect(found.value("uuid", as: UUID.self) == id)
        #expect(found.value("ratio", as: Double.self) == 0.5)
        #expect(found.value("ok", as: Bool.self) == true)
        #expect(found.value("n", as: Int.self) == nil)
        #expect(found.value("missing", as: Int.self) == nil)
        #expect(found.value("count", as: UUID.self) == nil)
    }

    @Test func arraysAreNotSingleStrings() throws {
        let found = try parameters(for: "app://list?id=1&id=2", pattern: "/list")
        #expect(found["id"] == nil)
        #expect(found.strings("id") == ["1", "2"])
        #expect(found.value("id", as: Int.self) == nil)
    }

    @Test func theJLRoutesDictionaryKeepsItsKeysAndTypes() throws {
        let found = try parameters(for: "app://files/a/b?x=1", pattern: "/files/*")
        let dictionary = found.dictionary
        #expect(dictionary["JLRoutePattern"] as? String == "/files/*")
        #expect(dictionary["JLRouteScheme"] as? String == "JLRoutesGlobalRoutesScheme")
        #expect(dictionary["JLRouteWildcardComponents"] as? [String] == ["a", "b"])
        #expect((dictionary["JLRouteURL"] as? URL)?.absoluteString == "app://files/a/b?x=1")
        #expect(dictionary["x"] as? String == "1")
        #expect(found.wildcardComponents == ["a", "b"])
        #expect(found.url.absoluteString == "app://files/a/b?x=1")
    }
}
