import Foundation
import Testing
@testable import LinkRouting

/// Named routes build URLs that route back to them with the same parameters.
struct RouteURLGenerationTests {
    typealias Generator = SegmentIndexTests.Generator

    @Test func aSchemeRouteFillsItsVariablesPercentEncoded() throws {
        let router = LinkRouter()
        router.addRoute("/products/:id", namespace: .scheme("myapp"), name: "product") { _ in true }
        let url = try router.url(forRoute: "product", parameters: ["id": "42 b/c"])
        #expect(url.absoluteString == "myapp://products/42%20b%2Fc")
        #expect(router.match(url)?.parameters == ["id": "42 b/c"])
    }

    @Test func aHostAwareRouteUsesItsHostAndExtraParametersBecomeQueryItems() throws {
        let router = LinkRouter()
        router.addRoute("https://www.example.com/invites/:code", name: "invite") { _ in true }
        let url = try router.url(forRoute: "invite", parameters: ["code": "ABC", "ref": "mail", "a": "1"])
        #expect(url.absoluteString == "https://www.example.com/invites/ABC?a=1&ref=mail")
    }

    @Test func aGlobalRouteTakesTheSchemeAndNeedsOne() throws {
        let router = LinkRouter()
        router.addRoute("/user/view/:id", name: "user") { _ in true }
        #expect(try router.url(forRoute: "user", parameters: ["id": "7"], scheme: "app").absoluteString == "app://user/view/7")
        let error = #expect(throws: RouteError.self) { try router.url(forRoute: "user", parameters: ["id": "7"]) }
        #expect(error?.code == .missingScheme)
    }

    @Test func aFirstComponentThatWouldReadAsAHostMovesThePathBehindAnEmptyHost() throws {
        let router = LinkRouter()
        router.addRoute("/:file", namespace: .scheme("app"), name: "file") { _ in true }
        let url = try router.url(forRoute: "file", parameters: ["file": "a.txt"])
        #expect(url.absoluteString == "app:///a.txt")
        #expect(router.match(url)?.parameters == ["file": "a.txt"])
    }

    @Test func optionalGroupsFollowTheParametersGiven() throws {
        let router = LinkRouter()
        router.addRoute("/path/:thing(/:id)", namespace: .scheme("app"), name: "thing") { _ in true }
        #expect(try router.url(forRoute: "thing", parameters: ["thing": "a", "id": "7"]).absoluteString == "app://path/a/7")
        #expect(try router.url(forRoute: "thing", parameters: ["thing": "a"]).absoluteString == "app://path/a")
    }

    @Test func unknownNamesAndMissingParametersAreErrorsThatSayWhat() throws {
        let router = LinkRouter()
        router.addRoute("/a/:x/:y", namespace: .scheme("app"), name: "a") { _ in true }
        let unknown = #expect(throws: RouteError.self) { try router.url(forRoute: "b") }
        #expect(unknown?.code == .unknownRoute)
        let missing = #expect(throws: RouteError.self) { try router.url(forRoute: "a", parameters: ["x": "1"]) }
        #expect(missing?.code == .missingParameter)
        #expect(missing?.description == "route 'a': '/a/:x/:y' needs a value for 'y'")
    }

    @Test func aPlusIsRefusedWhileTheRouterDecodesPlusAsASpace() throws {
        let router = LinkRouter()
        router.addRoute("/tag/:t", namespace: .scheme("app"), name: "tag") { _ in true }
        let error = #expect(throws: RouteError.self) { try router.url(forRoute: "tag", parameters: ["t": "C++"]) }
        #expect(error?.code == .unrepresentableValue)
        #expect(error?.message.contains("decodePlusSymbols") == true)
        router.options.decodePlusSymbols = false
        let url = try router.url(forRoute: "tag", parameters: ["t": "C++"])
        #expect(router.match(url)?.parameters == ["t": "C++"])
    }

    @Test func aRemovedRouteLosesItsNameAndALaterRouteTakesItOver() throws {
        let router = LinkRouter()
        router.addRoute("/old/:x", namespace: .scheme("app"), name: "n") { _ in true }
        let diagnostics = router.addRoute("/new/:x", namespace: .scheme("app"), name: "n") { _ in true }
        #expect(diagnostics.map(\.code) == [.duplicateName])
        #expect(try router.url(forRoute: "n", parameters: ["x": "1"]).absoluteString == "app://new/1")
        router.removeRoute("/new/:x", namespace: .scheme("app"))
        #expect(throws: RouteError.self) { try router.url(forRoute: "n", parameters: ["x": "1"]) }
    }

    @Test func routeTablesCarryNames() throws {
        let json = #"{"namespaces": [{"scheme": "app", "routes": [{"pattern": "/p/:id", "name": "product"}]}]}"#
        let table = try RouteTable(json: Data(json.utf8))
        #expect(table.namespaces[0].routes[0].name == "product")
        #expect(try RouteTable(json: table.jsonData()) == table)
        let router = table.makeRouter()
        #expect(try router.url(forRoute: "product", parameters: ["id": "9"]).absoluteString == "app://p/9")
        #expect(router.match("app://p/9")?.name == "product")
    }

    /// Property: for random values (spaces, `/`, `%`, `+`, `#`, `?`, `&`, `=`, unicode, empty), every URL built routes
    /// back through `match` to the same route with exactly the parameters given; the only refusals are the documented
    /// unrepresentable values.
    @Test(arguments: [true, false], [false, true])
    func generatedURLsRoundTripThroughMatch(decodePlusSymbols: Bool, alwaysTreatsHostAsPathComponent: Bool) throws {
        let router = LinkRouter(options: .init(
            decodePlusSymbols: decodePlusSymbols, alwaysTreatsHostAsPathComponent: alwaysTreatsHostAsPathComponent))
        router.addRoute("/products/:id", namespace: .scheme("app"), name: "product") { _ in true }
        router.addRoute("/path/:thing(/new)(/:id)", namespace: .scheme("app"), name: "optional") { _ in true }
        router.addRoute("https://www.example.com/invites/:code/:who", name: "invite") { _ in true }
        router.addRoute("/:first/x/:second", name: "global") { _ in true }
        let pieces = ["a", "Z", "0", " ", "/", "%", "%2F", "+", "#", "?", "&", "=", ".", "é", "🙂", "日本", "~", ":", "@", "localhost"]
        let routes: [(String, [String], [String])] = [
            ("product", ["id"], []), ("optional", ["thing"], ["id"]), ("invite", ["code", "who"], []),
            ("global", ["first", "second"], []),
        ]
        var rng = Generator(state: 0x5EED_0012)
        var built = 0
        for _ in 0..<400 {
            let (name, required, optional) = routes.randomElement(using: &rng)!
            var parameters: [String: String] = [:]
            for key in required + optional.filter({ _ in Bool.random(using: &rng) }) {
                parameters[key] = (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            }
            if Int.random(in: 0..<4, using: &rng) == 0 { parameters["extra"] = pieces.randomElement(using: &rng)! }
            do {
                let url = try router.url(forRoute: name, parameters: parameters, scheme: "other")
                let matched = try #require(router.match(url), "\(url) for \(parameters)")
                #expect(matched.name == name, "\(url)")
                #expect(matched.parameters == parameters, "\(url)")
                built += 1
            } catch let error as RouteError {
                // Only values the router cannot read back are refused.
                #expect(error.code == .unrepresentableValue, "\(parameters): \(error)")
                let values = parameters.values
                #expect(values.contains { $0.isEmpty || $0.hasSuffix("#") || (decodePlusSymbols && $0.contains("+")) }, "\(parameters): \(error)")
            }
        }
        #expect(built > 200)
    }
}
