import Foundation
import Synchronization
import _LinkKitLocking
import Testing
@testable import LinkRouting

struct RouteTableTests {
    static let formatExample = """
        {"decodePlusSymbols": true, "alwaysTreatsHostAsPathComponent": false, "namespaces": [{"scheme": null, \
        "fallbackToGlobal": false, "routes": [{"pattern": "/user/view/:userID", "priority": 0, "handles": true}]}, \
        {"scheme": "tests", "fallbackToGlobal": true, "routes": []}]}
        """

    @Test func theFormatExampleLoads() throws {
        let table = try RouteTable(json: Data(Self.formatExample.utf8))
        #expect(table == RouteTable(namespaces: [
            .init(scheme: nil, routes: [.init(pattern: "/user/view/:userID")]),
            .init(scheme: "tests", fallbackToGlobal: true),
        ]))
    }

    @Test func aDumpLoadsBackToAnEqualTable() throws {
        let table = RouteTable(
            decodePlusSymbols: false, alwaysTreatsHostAsPathComponent: true,
            namespaces: [
                .init(scheme: nil, routes: [.init(pattern: "/a/:b", priority: 3, handles: false, group: "g")]),
                .init(scheme: "myapp", fallbackToGlobal: true, routes: [.init(pattern: "/x(/y)")]),
                .init(scheme: "empty"),
            ])
        #expect(try RouteTable(json: table.jsonData()) == table)
        #expect(try RouteTable(json: table.jsonData(prettyPrinted: false)) == table)
        let text = String(decoding: table.jsonData(prettyPrinted: false), as: UTF8.self)
        #expect(text.contains(#""scheme":null"#))
    }

    /// Found by the round-trip property test: priorities went through a Double, so the dump of `Int.max` did not
    /// load and 2^53 + 1 loaded as 2^53.
    @Test(arguments: [Int.max, Int.min, 9_007_199_254_740_993, -9_007_199_254_740_993])
    func extremeIntegerPrioritiesLoadExactly(priority: Int) throws {
        let table = RouteTable(namespaces: [.init(scheme: nil, routes: [.init(pattern: "/a", priority: priority)])])
        #expect(try RouteTable(json: table.jsonData()) == table)
        let json = #"{"namespaces": [{"routes": [{"pattern": "/a", "priority": \#(priority)}]}]}"#
        #expect(try RouteTable(json: Data(json.utf8)).namespaces.first?.routes.first?.priority == priority)
    }

    @Test func anIntegerPriorityBeyondIntIsATypeMismatch() {
        let json = #"{"namespaces": [{"routes": [{"pattern": "/a", "priority": 18446744073709551615}]}]}"#
        #expect(throws: RouteError.self) { try RouteTable(json: Data(json.utf8)) }
    }

    @Test func missingOptionalKeysTakeJLRoutesDefaults() throws {
        let table = try RouteTable(json: Data(#"{"namespaces": [{"routes": [{"pattern": "/a"}]}, {"scheme": "s"}]}"#.utf8))
        #expect(table.decodePlusSymbols)
        #expect(!table.alwaysTreatsHostAsPathComponent)
        #expect(table.namespaces == [.init(scheme: nil, routes: [.init(pattern: "/a")]), .init(scheme: "s")])
    }

    @Test(arguments: [
        (#"{"namespaces": [{"routes": [{"pattern": "/a", "priority": "high"}]}]}"#,
         "namespaces[0].routes[0].priority: expected an integer, found the string \"high\""),
        (#"{"namespaces": [{"routes": [{"pattern": "/a", "handles": 1}]}]}"#,
         "namespaces[0].routes[0].handles: expected a boolean, found the number 1"),
        (#"{"namespaces": [{"routes": [{"pattern": "/a", "priority": true}]}]}"#,
         "namespaces[0].routes[0].priority: expected an integer, found a boolean"),
        (#"{"namespaces": [{"routes": [{"pattern": "/a", "priority": 1.5}]}]}"#,
         "namespaces[0].routes[0].priority: expected an integer, found the number 1.5"),
        (#"{"namespaces": [{"routes": [{"patern": "/a"}]}]}"#,
         "namespaces[0].routes[0].patern: unknown key; expected one of group, handles, name, pattern, priority"),
        (#"{"namespaces": [{"routes": [{}]}]}"#,
         "namespaces[0].routes[0].pattern: required key missing: expected a pattern string"),
        (#"{"namespaces": [{"routes": [{"pattern": ""}]}]}"#,
         "namespaces[0].routes[0].pattern: expected a pattern such as \"/user/view/:userID\", found an empty string"),
        (#"{"namespaces": [{"scheme": 3}]}"#, "namespaces[0].scheme: expected a string, found the number 3"),
        (#"{"namespaces": [{"scheme": "a"}, {"scheme": "a"}]}"#,
         "namespaces[1].scheme: namespace 'a' is listed twice; merge the two entries"),
        (#"{"namespaces": {}}"#, "namespaces: expected an array, found an object"),
        (#"{"decodePlusSymbols": "yes", "namespaces": []}"#, "decodePlusSymbols: expected a boolean, found the string \"yes\""),
        (#"{}"#, "namespaces: required key missing: expected an array of namespaces"),
        (#"{"namespaces": [], "extra": 1}"#,
         "extra: unknown key; expected one of alwaysTreatsHostAsPathComponent, decodePlusSymbols, namespaces"),
        (#"[]"#, "(document): expected an object, found an array"),
    ])
    func errorsNameTheKeyPath(json: String, message: String) {
        #expect(throws: RouteError.self) { try RouteTable(json: Data(json.utf8)) }
        do {
            _ = try RouteTable(json: Data(json.utf8))
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func invalidJSONIsReported() {
        do {
            _ = try RouteTable(json: Data("{\"namespaces\": [".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidJSON)
        }
    }

    @Test func aRepeatedKeyKeepsItsLastValueWithAWarningNamingItsKeyPath() throws {
        let json = #"""
            {"decodePlusSymbols": true, "decodePlusSymbols": false, "namespaces": [
              {"scheme": "a", "scheme": "b", "routes": [{"pattern": "/x/:v", "handles": true, "handles": false}]}]}
            """#
        let router = try RouteTable(json: Data(json.utf8)).makeRouter()
        #expect(router.diagnostics.map(\.code) == ["duplicateKey", "duplicateKey", "duplicateKey"])
        #expect(router.diagnostics.map(\.subject) == ["decodePlusSymbols", "namespaces[0].scheme", "namespaces[0].routes[0].handles"])
        #expect(router.diagnostics.first?.description
            == #"decodePlusSymbols: key "decodePlusSymbols" appears more than once in this object; the last value counts, as JSONSerialization reads it: remove the others"#)
        // The last values count: decoding off, the namespace of scheme `b`, a handler that declines.
        #expect(!router.options.decodePlusSymbols)
        #expect(router.canRoute("b://x/1"))
        #expect(!router.canRoute("a://x/1"))
        #expect(!router.route("b://x/1"))
    }

    @Test func theRouterFollowsTheTable() throws {
        let json = #"""
            {"decodePlusSymbols": false, "namespaces": [
              {"scheme": null, "routes": [
                {"pattern": "/decline/:x", "priority": 5, "handles": false},
                {"pattern": "/:section/:x"},
                {"pattern": "/invites/:code", "priority": 9, "group": "invites"}]},
              {"scheme": "tests", "fallbackToGlobal": true, "routes": []},
              {"scheme": "closed", "routes": []}]}
            """#
        let table = try RouteTable(json: Data(json.utf8))
        let calls = Mutex<[(pattern: String?, x: String?)]>([])
        let router = table.makeRouter { parameters in calls.withTrackedLock { $0.append((parameters[RouteKey.pattern], parameters["x"])) } }
        #expect(router.route("app://decline/a+b"))
        // The declining route is called first and passes the URL on; `+` stays as the table turns decoding off.
        #expect(calls.withTrackedLock { $0.map(\.pattern) } == ["/decline/:x", "/:section/:x"])
        #expect(calls.withTrackedLock { $0.map(\.x) } == ["a+b", "a+b"])
        #expect(router.route("tests://invites/A"))
        #expect(!router.route("closed://invites/A"))
        #expect(router.namespaces == [.global, .scheme("closed"), .scheme("tests")])
        #expect(router.options == .init(decodePlusSymbols: false))
        router.setGroup("invites", enabled: false)
        calls.withTrackedLock { $0 = [] }
        #expect(router.route("app://invites/A"))
        #expect(calls.withTrackedLock { $0.map(\.pattern) } == ["/:section/:x"])
    }
}
