import Foundation
import Synchronization
import _LinkKitLocking
import Testing
@testable import LinkRouting

/// The index must give exactly what JLRoutes' linear scan of its priority-ordered list gives.
struct SegmentIndexTests {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct ReferenceRoute {
        var id: Int
        var pattern: String
        var components: [String]
        var priority: Int
        var accepts: Bool
        var group: String?
    }

    static let literals = ["a", "b", "c", "user", "view", "x%20y", ""]

    static func makePattern(_ generator: inout Generator) -> String {
        let count = Int.random(in: 1...4, using: &generator)
        var parts: [String] = []
        for position in 0..<count {
            switch Int.random(in: 0..<20, using: &generator) {
            case 0..<14: parts.append(literals.randomElement(using: &generator) ?? "a")
            case 14..<19: parts.append(":v\(position)")
            default: parts.append(position >= 2 ? "*" : ":v\(position)")
            }
            if parts.last == "*" { break }
        }
        return "/" + parts.joined(separator: "/")
    }

    static func makeURL(_ generator: inout Generator) -> String {
        let count = Int.random(in: 1...5, using: &generator)
        let parts = (0..<count).map { _ in literals.randomElement(using: &generator) ?? "a" }
        let query = Bool.random(using: &generator) ? "?q=1&q=2&v0=query" : ""
        return "https://www.example.com/" + parts.joined(separator: "/") + query
    }

    /// JLRoutes' `routeVariablesForRequest:`, written out again as the reference.
    static func referenceMatch(_ route: ReferenceRoute, _ url: [String]) -> [String: RouteParameters.Value]? {
        let hasWildcard = route.components.contains("*")
        if url.count != route.components.count && !hasWildcard { return nil }
        var variables: [String: RouteParameters.Value] = [:]
        for (index, component) in route.components.enumerated() {
            if component == "*" {
                return url.count >= index ? variables.merging([RouteKey.wildcardComponents: .strings(Array(url[index...]))]) { $1 } : nil
            }
            guard index < url.count else { return nil }
            if component.hasPrefix(":") {
                variables[String(component.dropFirst())] = .string(url[index].removingPercentEncoding ?? url[index])
            } else if component != url[index] {
                return nil
            }
        }
        return variables
    }

    @Test(arguments: [10, 1_000, 10_000])
    // Async, yielding as it goes: at 10 000 routes it computes for seconds, and holding one of the two cooperative
    // threads that long made deadline tests running beside it late.
    func theIndexGivesTheSameResultsAsALinearJLRoutesScan(routeCount: Int) async throws {
        var generator = Generator(state: UInt64(routeCount))
        let router = LinkRouter()
        let calls = Mutex<[Int]>([])
        let accepted = Mutex<RouteParameters?>(nil)

        // JLRoutes' `_registerRoute:`: priority 0 appends; otherwise insert before the first lower priority.
        var list: [ReferenceRoute] = []
        for id in 0..<routeCount {
            if id % 256 == 0 { await Task.yield() }
            let pattern = Self.makePattern(&generator)
            let priority = Int.random(in: 0..<10, using: &generator) < 7 ? 0 : Int.random(in: 1...3, using: &generator)
            let accepts = Bool.random(using: &generator)
            let group: String? = Int.random(in: 0..<10, using: &generator) == 0 ? "off" : nil
            // JLRoutes splits the pattern after one leading `/`; the trailing-`/` fix also drops one trailing `/`.
            var path = pattern.dropFirst()
            if path.hasSuffix("/") { path = path.dropLast() }
            let route = ReferenceRoute(
                id: id, pattern: pattern, components: path.split(separator: "/", omittingEmptySubsequences: false).map(String.init),
                priority: priority, accepts: accepts, group: group)
            if priority == 0 || list.isEmpty {
                list.append(route)
            } else if let index = list.firstIndex(where: { $0.priority < priority }) {
                list.insert(route, at: index)
            } else {
                list.append(route)
            }
            router.addRoute(pattern, priority: priority, group: group) { parameters in
                calls.withTrackedLock { $0.append(id) }
                if accepts { accepted.withTrackedLock { $0 = parameters } }
                return accepts
            }
        }
        router.setGroup("off", enabled: false)

        var urls = (0..<150).map { _ in Self.makeURL(&generator) }
        // URLs built from registered patterns, so that many routes match.
        for _ in 0..<150 {
            let route = list.randomElement(using: &generator)
            let path = route?.components.map { $0.hasPrefix(":") ? "val" : $0 == "*" ? "w/z" : $0 }.joined(separator: "/") ?? ""
            urls.append("https://www.example.com/" + path)
        }

        var routedCount = 0
        var fallThroughCount = 0
        for string in urls {
            await Task.yield()
            let url = try #require(URL(string: string))
            let components = RouteRequest(text: string, url: url, alwaysTreatsHostAsPathComponent: false).components
                .map { String(decoding: $0, as: UTF8.self) }
            let query = RouteRequest(text: string, url: url, alwaysTreatsHostAsPathComponent: false).queryParameters(decodePlusSymbols: true)

            var expectedCalls: [Int] = []
            var expectedParameters: [String: RouteParameters.Value]?
            for route in list where route.group == nil {
                guard let variables = Self.referenceMatch(route, components) else { continue }
                expectedCalls.append(route.id)
                if route.accepts {
                    expectedParameters = query.merging(variables) { $1 }.merging([
                        RouteKey.pattern: .string(route.pattern), RouteKey.url: .string(string),
                        RouteKey.scheme: .string(RouteKey.globalRoutesScheme),
                    ]) { $1 }
                    break
                }
            }

            calls.withTrackedLock { $0 = [] }
            accepted.withTrackedLock { $0 = nil }
            let routed = router.route(url)
            #expect(routed == (expectedParameters != nil), "\(string)")
            #expect(calls.withTrackedLock { $0 } == expectedCalls, "\(string)")
            #expect(accepted.withTrackedLock { $0?.values } == expectedParameters, "\(string)")
            #expect(router.canRoute(url) == !expectedCalls.isEmpty, "\(string)")
            if routed { routedCount += 1 }
            if expectedCalls.count > 1 { fallThroughCount += 1 }
        }
        // The comparison is only meaningful if URLs route and some go through declining handlers first.
        #expect(routedCount > 0)
        #expect(fallThroughCount > 0)
    }

    @Test func laterCandidatesAreProducedOnlyWhenAHandlerDeclines() throws {
        let router = LinkRouter()
        let calls = Mutex(0)
        for index in 0..<1_000 {
            router.addRoute("/:a/:b", priority: index % 3) { _ in
                calls.withTrackedLock { $0 += 1 }
                return true
            }
        }
        #expect(router.route(try #require(URL(string: "app://x/y"))))
        #expect(calls.withTrackedLock { $0 } == 1)
    }
}
