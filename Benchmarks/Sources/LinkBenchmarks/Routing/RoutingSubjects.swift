import Foundation
@_spi(Internal) import Hummingbird
import LinkRouting
import Logging
import RoutingKit

/// A router under test: built from the fixture's patterns, then asked to route URL strings.
protocol RoutingSubject {
    static var name: String { get }
    /// The JSON `variant` of the subject's rows, when it is a second way of measuring the same router.
    static var variant: String? { get }
    init(patterns: [String])
    /// Routes `url` (a full URL string) and returns whether a route took it.
    func route(_ url: String) -> Bool
}

extension RoutingSubject {
    static var variant: String? { nil }
}

/// Ours: the string goes in as a user hands it over; `route(_: String)` parses it, walks the index and calls the
/// handler, which reads what a real handler reads: the route's variables by name (`id`, and `cid` for the comments
/// route; nothing for the static route), percent-decoded, as RoutingKit's figure includes decoding its two
/// parameters. The JLRoutes dictionary is then never built: see ``UniversalLinkKitFullDictionarySubject``.
struct UniversalLinkKitSubject: RoutingSubject {
    static let name = "UniversalLinkKit"
    let router = LinkRouter()

    init(patterns: [String]) {
        for pattern in patterns {
            router.addRoute(pattern, handler: Self.handler(for: pattern))
        }
    }

    /// The handler a developer would write for each of the fixture's four route shapes, chosen without parsing
    /// the pattern (the cold start times registration, not the harness).
    static func handler(for pattern: String) -> LinkRouter.Handler {
        if pattern.hasSuffix("/:cid") { return { $0["id"] != nil && $0["cid"] != nil } }
        if pattern.hasSuffix("/all") { return { _ in true } }
        return { $0["id"] != nil }
    }

    func route(_ url: String) -> Bool { router.route(url) }
}

/// Ours, with a handler that reads the whole JLRoutes dictionary (`parameters.values`): query items, variables,
/// `JLRoutePattern`, `JLRouteURL` and `JLRouteScheme`, as a handler ported from Objective-C that walks the
/// dictionary would. Kept next to the default subject so that the cost of building the dictionary stays visible.
struct UniversalLinkKitFullDictionarySubject: RoutingSubject {
    static let name = "UniversalLinkKit-full-dictionary"
    static let variant: String? = "full-dictionary"
    let router = LinkRouter()

    init(patterns: [String]) {
        for pattern in patterns {
            router.addRoute(pattern) { parameters in parameters.values.count > 0 }
        }
    }

    func route(_ url: String) -> Bool { router.route(url) }
}

/// The logger RoutingKit's `Parameters` are given, made once as Vapor hands in the request's logger:
/// `Parameters()` would build a new `Logger` on every call, which Vapor never does.
let routingKitLogger = Logger(label: "benchmarks.routingkit")

/// RoutingKit 4.9.3's `TrieRouter`, handed the path split the way Vapor splits it (split included).
struct RoutingKitSubject: RoutingSubject {
    static let name = "RoutingKit"
    let router = TrieRouter(Int.self)

    init(patterns: [String]) {
        for (number, pattern) in patterns.enumerated() {
            router.register(number, at: pattern.pathComponents)
        }
    }

    func route(_ url: String) -> Bool {
        var parameters = RoutingKit.Parameters(routingKitLogger)
        let path = pathOfURLString(url).split(separator: "/").map { String($0) }
        return router.route(path: path, parameters: &parameters) != nil
    }
}

/// RoutingKit 4.9.3 given the components already split: its best case, what it costs inside the trie only.
final class RoutingKitPresplitSubject: RoutingSubject {
    static let name = "RoutingKit-presplit"
    let router = TrieRouter(Int.self)
    private var presplit: [String: [String]] = [:]

    init(patterns: [String]) {
        for (number, pattern) in patterns.enumerated() {
            router.register(number, at: pattern.pathComponents)
        }
    }

    /// Splits once per distinct URL, outside the timed loop's steady state (the dictionary hit is a few ns).
    func route(_ url: String) -> Bool {
        let path: [String]
        if let known = presplit[url] {
            path = known
        } else {
            path = pathOfURLString(url).split(separator: "/").map { String($0) }
            presplit[url] = path
        }
        var parameters = RoutingKit.Parameters(routingKitLogger)
        return router.route(path: path, parameters: &parameters) != nil
    }
}

/// Hummingbird 2.28.1's serialised trie (`RouterTrie`, what its `Router` uses), handed the path string.
struct HummingbirdSubject: RoutingSubject {
    static let name = "Hummingbird"
    let trie: RouterTrie<Int>

    init(patterns: [String]) {
        let builder = RouterPathTrieBuilder<Int>()
        for (number, pattern) in patterns.enumerated() {
            builder.addEntry(RouterPath(pattern), value: number)
        }
        trie = builder.build()
    }

    func route(_ url: String) -> Bool {
        trie.resolve(String(pathOfURLString(url))) != nil
    }
}

/// What JLRoutes does (it does not run on Linux): every route in priority and registration order, each compared
/// component by component until one matches; then the variables, percent-decoded, go into a dictionary.
struct LinearScanSubject: RoutingSubject {
    static let name = "LinearScan"

    private enum Component {
        case literal(Substring)
        case variable(String)
    }

    private let routes: [[Component]]

    init(patterns: [String]) {
        routes = patterns.map { pattern in
            pattern.split(separator: "/").map { part in
                part.first == ":" ? .variable(String(part.dropFirst())) : .literal(part)
            }
        }
    }

    func route(_ url: String) -> Bool {
        let components = pathOfURLString(url).split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        next: for route in routes where route.count == components.count {
            for (component, given) in zip(route, components) {
                if case .literal(let literal) = component, literal != given { continue next }
            }
            var variables: [String: String] = [:]
            for (component, given) in zip(route, components) {
                guard case .variable(let name) = component else { continue }
                // Foundation's decoder only where there is something to decode: it costs microseconds on Linux.
                variables[name] = given.contains("%") ? given.removingPercentEncoding ?? String(given) : String(given)
            }
            return !variables.isEmpty || route.count > 0
        }
        return false
    }
}
