import Foundation
import Testing
@testable import LinkRouting

/// Optional groups are bounded per table, not only per pattern: without it 16 000 routes of 512 expansions each (a
/// 924 KB table) would be 8 million routes.
struct RouteExpansionBudgetTests {
    /// `/a(/b)...` with nine groups: 10 subpaths, the most one pattern expands, 512 routes.
    static let nineGroups = "/a" + String(repeating: "(/b)", count: 9)

    static func table(routes: Int, pattern: String = nineGroups) -> Data {
        let route = #"{"pattern": "\#(pattern)"}"#
        let routes = Array(repeating: route, count: routes).joined(separator: ",")
        return Data(#"{"namespaces": [{"scheme": null, "routes": [\#(routes)]}]}"#.utf8)
    }

    @Test func expansionsAreCountedWithoutExpanding() {
        #expect(OptionalGroupExpander.expansionCount("/a/b") == 1)
        #expect(OptionalGroupExpander.expansionCount("/a(/b)") == 2)
        #expect(OptionalGroupExpander.expansionCount(Self.nineGroups) == 512)
        #expect(OptionalGroupExpander.expansionCount(Self.nineGroups + "(/b)") == 1)
    }

    /// Found by `.ci/fuzz route-expansions`: a required part written twice doubles the combinations kept, so
    /// 2^groups undercounted and the router went past its budget.
    @Test(arguments: [
        "/a(/b)(/c)(/d)(/e(/f)(/g)(/&)a(/b)a\u{FFFD}\u{FFFD}\u{01}\u{00}\u{00}\u{00}\u{FFFD}j\u{FFFD}", "/a(/b)a(/c)a", "/x(/y)",
        "(/a)(/a)/a", "/a/b(/c)", "()", "/a(/b)/a(/b)/a",
    ])
    func theCountIsTheNumberOfExpansions(pattern: String) {
        let expanded = OptionalGroupExpander.expand(pattern)
        #expect(OptionalGroupExpander.expansionCount(pattern) == max(expanded.count, 1))
    }

    @Test func aTableOverTheExpansionBudgetIsRefusedAtTheRouteThatCrossesIt() throws {
        let limit = OptionalGroupExpander.maximumTableExpansions
        let fitting = limit / 512
        _ = try RouteTable(json: Self.table(routes: fitting))
        let error = try #require(throws: RouteError.self) { try RouteTable(json: Self.table(routes: fitting + 1)) }
        #expect(error.code == .invalidValue)
        #expect(error.subject == "namespaces[0].routes[\(fitting)].pattern")
        #expect(error.message.contains("more than \(limit) routes"))
    }

    @Test func routesWithoutGroupsDoNotCountAgainstTheBudget() throws {
        let routes = (0..<20).map { ["pattern": "/a/\($0)"] } + [["pattern": "/b(/c)"], ["pattern": "/d(/e)"]]
        let object: [String: Any] = ["namespaces": [["scheme": NSNull(), "routes": routes]]]
        let json = try JSONSerialization.data(withJSONObject: object)
        #expect(try RouteTableReader.table(json: json, maximumExpansions: 4).namespaces[0].routes.count == 22)
        let error = try #require(throws: RouteError.self) {
            try RouteTableReader.table(json: json, maximumExpansions: 3)
        }
        #expect(error.subject == "namespaces[0].routes[21].pattern")
        #expect(error.message.contains("more than 3 routes"))
    }

    @Test func aRouterPastItsBudgetRegistersThePatternAsWritten() async {
        // 512 registrations hold a thread for seconds in a debug build: not one of the cooperative pool's.
        let router = await onOwnThread {
            let router = LinkRouter(maximumExpansions: 1_000)
            router.addRoute(Self.nineGroups) { _ in true }
            return router
        }
        #expect(router.diagnostics.isEmpty)
        let found = router.addRoute("/c" + String(repeating: "(/d)", count: 9)) { _ in true }
        #expect(found.map(\.code) == [.tooManyOptionalGroups])
        #expect(found.first?.message.contains("limit of 1000 optional-group expansions") == true)
        #expect(router.routes().count == 512 + 1)
        #expect(router.canRoute("tests://a/b/b"))
        #expect(!router.canRoute("tests://c/d"))
        // A pattern without groups still registers.
        #expect(router.addRoute("/e/:f") { _ in true }.isEmpty)
        #expect(router.canRoute("tests://e/1"))
    }
}
