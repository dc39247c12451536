import Foundation
internal import _LinkKitText

/// A route table as data: options, namespaces and routes, loaded from and dumped to JSON.
///
/// ```json
/// {"decodePlusSymbols": true, "alwaysTreatsHostAsPathComponent": false,
///  "namespaces": [
///    {"scheme": null, "fallbackToGlobal": false,
///     "routes": [{"pattern": "/user/view/:userID", "priority": 0, "handles": true}]},
///    {"scheme": "tests", "fallbackToGlobal": true, "routes": []}]}
/// ```
///
/// `scheme: null` is the global namespace. Namespaces and routes are created in array order; an empty namespace still
/// exists (and hides the global routes from its scheme). `handles: false` is a handler that returns `false`. Routes
/// may carry a `"group"` name and a `"name"` (for ``LinkRouter/url(forRoute:parameters:scheme:)``). Missing options default to JLRoutes' (`true`, `false`), a missing `fallbackToGlobal` to
/// `false`, `priority` to `0`, `handles` to `true`, `routes` to `[]`; `namespaces` and `pattern` are required.
/// Unknown keys are errors, so a typo does not silently change routing.
public struct RouteTable: Sendable, Hashable {
    /// One route of the table.
    public struct Route: Sendable, Hashable {
        /// The pattern, as for ``LinkRouter/addRoute(_:namespace:priority:group:name:handler:)``.
        public var pattern: String
        /// The priority.
        public var priority: Int
        /// What the route's handler returns: `false` passes the URL on.
        public var handles: Bool
        /// The group, to switch the route off at run time.
        public var group: String?
        /// The route's name, to build its URLs with ``LinkRouter/url(forRoute:parameters:scheme:)``.
        public var name: String?

        /// Creates a route.
        ///
        /// - Parameters:
        ///   - pattern: The pattern.
        ///   - priority: The priority.
        ///   - handles: What the route's handler returns.
        ///   - group: The group.
        ///   - name: The route's name.
        public init(pattern: String, priority: Int = 0, handles: Bool = true, group: String? = nil, name: String? = nil) {
            self.pattern = pattern
            self.priority = priority
            self.handles = handles
            self.group = group
            self.name = name
        }
    }

    /// One namespace of the table.
    public struct Namespace: Sendable, Hashable {
        /// The URL scheme, or `nil` for the global namespace.
        public var scheme: String?
        /// Whether URLs unmatched here are tried against the global routes.
        public var fallbackToGlobal: Bool
        /// The routes, in registration order.
        public var routes: [Route]

        /// Creates a namespace.
        public init(scheme: String?, fallbackToGlobal: Bool = false, routes: [Route] = []) {
            self.scheme = scheme
            self.fallbackToGlobal = fallbackToGlobal
            self.routes = routes
        }
    }

    /// ``LinkRouter/Options/decodePlusSymbols``.
    public var decodePlusSymbols: Bool
    /// ``LinkRouter/Options/alwaysTreatsHostAsPathComponent``.
    public var alwaysTreatsHostAsPathComponent: Bool
    /// The namespaces, in creation order.
    public var namespaces: [Namespace]

    /// Creates a table.
    public init(decodePlusSymbols: Bool = true, alwaysTreatsHostAsPathComponent: Bool = false, namespaces: [Namespace] = []) {
        self.decodePlusSymbols = decodePlusSymbols
        self.alwaysTreatsHostAsPathComponent = alwaysTreatsHostAsPathComponent
        self.namespaces = namespaces
    }

    /// Loads a table from JSON.
    ///
    /// - Parameter json: the JSON document.
    /// - Throws: ``RouteTableError`` naming the key path, what was expected and what was found.
    public init(json: Data) throws(RouteTableError) {
        self = try RouteTableReader.table(json: json)
    }

    /// The table as JSON (keys sorted, `scheme: null` written out), which ``init(json:)`` reads back to an equal table.
    ///
    /// The bytes are those `JSONSerialization` writes on Linux with `.sortedKeys` and `.withoutEscapingSlashes`
    /// (and `.prettyPrinted`).
    ///
    /// - Parameter prettyPrinted: indent for people (default) or write one line.
    /// - Returns: UTF-8 JSON.
    public func jsonData(prettyPrinted: Bool = true) -> Data {
        // Members in sorted key order, as `.sortedKeys` puts them.
        let value = JSONValue.object([
            ("alwaysTreatsHostAsPathComponent", .bool(alwaysTreatsHostAsPathComponent)),
            ("decodePlusSymbols", .bool(decodePlusSymbols)),
            ("namespaces", .array(namespaces.map { namespace in
                .object([
                    ("fallbackToGlobal", .bool(namespace.fallbackToGlobal)),
                    ("routes", .array(namespace.routes.map { route in
                        var members: [(key: String, value: JSONValue)] = []
                        if let group = route.group { members.append(("group", .string(group))) }
                        members.append(("handles", .bool(route.handles)))
                        if let name = route.name { members.append(("name", .string(name))) }
                        members.append(("pattern", .string(route.pattern)))
                        members.append(("priority", .integer(route.priority)))
                        return .object(members)
                    })),
                    ("scheme", .stringOrNull(namespace.scheme)),
                ])
            })),
        ])
        return Data(JSONWriter.bytes(value, style: prettyPrinted ? .foundationPretty : .compact))
    }

    /// Builds a router with this table's options, namespaces and routes.
    ///
    /// Each route's handler calls `onRoute` with the route and its parameters, then returns the route's `handles`.
    ///
    /// - Parameter onRoute: observes every handler call (accepted or not).
    /// - Returns: a new router.
    public func makeRouter(onRoute: @escaping @Sendable (Route, RouteParameters) -> Void = { _, _ in }) -> LinkRouter {
        let router = LinkRouter(options: .init(
            decodePlusSymbols: decodePlusSymbols, alwaysTreatsHostAsPathComponent: alwaysTreatsHostAsPathComponent))
        for namespace in namespaces {
            let target: RouteNamespace
            if let scheme = namespace.scheme {
                router.addNamespace(scheme, fallsBackToGlobalRoutes: namespace.fallbackToGlobal)
                target = .scheme(scheme)
            } else {
                target = .global
            }
            for route in namespace.routes {
                router.addRoute(
                    route.pattern, namespace: target, priority: route.priority, group: route.group, name: route.name
                ) { parameters in
                    onRoute(route, parameters)
                    return route.handles
                }
            }
        }
        return router
    }
}
