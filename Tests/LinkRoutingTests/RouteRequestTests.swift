import Foundation
import Testing
@testable import LinkRouting

struct RouteRequestTests {
    private func split(_ string: String, always: Bool = false) throws -> [String] {
        let url = try #require(URL(string: string))
        return RouteRequest(text: string, url: url, alwaysTreatsHostAsPathComponent: always).components
            .map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [
        ("myapp://user/view/x", ["user", "view", "x"]),
        ("https://www.example.com/invites/ABC", ["invites", "ABC"]),
        ("http://localhost/test", ["test"]),
        ("myapp://", [""]),
        ("myapp:/", [""]),
        ("myapp:///a/", ["a"]),
        ("myapp://web/http%3A%2F%2Fx.com%2Fb", ["web", "http%3A%2F%2Fx.com%2Fb"]),
        ("myapp://user:pw@host:8080/a", ["host", "a"]),
        ("https://www.example.com//a//", ["", "a", ""]),
        ("myapp://user#/view/x", ["user#", "view", "x"]),
        ("myapp://user/x#k=v", ["user", "x"]),
        ("myapp://user/x#k=", ["user", "x#k="]),
        ("myapp://user/x#", ["user", "x#"]),
    ])
    func pathsSplitTheJLRoutesWay(url: String, components: [String]) throws {
        #expect(try split(url) == components)
    }

    @Test func theHostIsAlwaysAPathComponentWhenAsked() throws {
        #expect(try split("https://www.example.com/a", always: true) == ["www.example.com", "a"])
    }

    @Test func fragmentQueryItemsFollowTheURLsOwn() throws {
        let string = "myapp://x?a=1&b#a=2&c=3"
        let url = try #require(URL(string: string))
        let request = RouteRequest(text: string, url: url, alwaysTreatsHostAsPathComponent: false)
        #expect(request.queryItems.map(\.name) == ["a", "a", "c"])
        #expect(request.queryParameters(decodePlusSymbols: true) == ["a": .strings(["1", "2"]), "c": .string("3")])
    }

    @Test(arguments: [
        ("plain", "plain"), ("a%20b", "a b"), ("%zz", "%zz"), ("%4", "%4"), ("100%", "100%"),
        ("%E2%82%AC", "€"), ("%FF", "%FF"), ("%2f", "/"), ("a+b", "a+b"),
    ])
    func percentDecodingIsDeterministic(encoded: String, decoded: String) {
        #expect(PercentDecoding.decode(encoded) == decoded)
    }
}
