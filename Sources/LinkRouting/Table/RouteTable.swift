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
/// may carry a `"group"` name and a `"name"` (for ``LinkRouter/url(forRoute:parameters:scheme:)``). Missing options
/// default to JLRoutes' (`true`, `false`), a missing `fallbackToGlobal` to `false`, `priority` to `0`, `handles` to
/// `true`, `routes` to `[]`; `namespaces` and `pattern` are required. Unknown keys are errors, so a typo does not
/// silently change routing. A key repeated in one object keeps its last value, as `JSONSerialization` reads it, with a
/// `duplicateKey` warning in the router's ``LinkRouter/diagnostics``.
///
/// ```swift
/// let table = try RouteTable(json: Data(#"{"namespaces": [{"routes": [{"pattern": "/user/view/:userID"}]}]}"#.utf8))
/// let router = table.makeRouter()
/// router.canRoute("myapp://user/view/joeldev")   // true
/// ```
public struct RouteTable: Sendable, Hashable {
    /// One route of the table.
    package struct Route: Sendable, Hashable {
        /// The pattern, as for ``LinkRouter/addRoute(_:namespace:priority:group:name:handler:)``.
        package var pattern: String
        /// The priority.
        package var priority: Int
        /// What the route's handler returns: `false` passes the URL on.
        package var handles: Bool
        /// The group, to switch the route off at run time.
        package var group: String?
        /// The route's name, to build its URLs with ``LinkRouter/url(forRoute:parameters:scheme:)``.
        package var name: String?

        /// Creates a route.
        ///
        /// - Parameters:
        ///   - pattern: The pattern.
        ///   - priority: The priority.
        ///   - handles: What the route's handler returns.
        ///   - group: The group.
        ///   - name: The route's name.
        package init(pattern: String, priority: Int = 0, handles: Bool = true, group: String? = nil, name: String? = nil) {
            self.pattern = pattern
            self.priority = priority
            self.handles = handles
            self.group = group
            self.name = name
        }
    }

    /// One namespace of the table.
    package struct Namespace: Sendable, Hashable {
        /// The URL scheme, or `nil` for the global namespace.
        package var scheme: String?
        /// Whether URLs unmatched here are tried against the global routes.
        package var fallbackToGlobal: Bool
        /// The routes, in registration order.
        package var routes: [Route]

        /// Creates a namespace.
        package init(scheme: String?, fallbackToGlobal: Bool = false, routes: [Route] = []) {
            self.scheme = scheme
            self.fallbackToGlobal = fallbackToGlobal
            self.routes = routes
        }
    }

    /// ``LinkRouter/Options/decodePlusSymbols``.
    package var decodePlusSymbols: Bool
    /// ``LinkRouter/Options/alwaysTreatsHostAsPathComponent``.
    package var alwaysTreatsHostAsPathComponent: Bool
    /// The namespaces, in creation order.
    package var namespaces: [Namespace]
    /// What reading the table found (keys that repeat); ``makeRouter(onRoute:)`` puts them first in the router's
    /// ``LinkRouter/diagnostics``.
    package var diagnostics: [RouteDiagnostic] = []

    /// Creates a table.
    package init(decodePlusSymbols: Bool = true, alwaysTreatsHostAsPathComponent: Bool = false, namespaces: [Namespace] = []) {
        self.decodePlusSymbols = decodePlusSymbols
        self.alwaysTreatsHostAsPathComponent = alwaysTreatsHostAsPathComponent
        self.namespaces = namespaces
    }

    /// Loads a table from JSON.
    ///
    /// - Parameter json: the JSON document.
    /// - Throws: ``RouteError`` naming the key path, what was expected and what was found.
    public init(json: Data) throws(RouteError) {
        self = try RouteTableReader.table(json: json)
    }

    /// The table as JSON (keys sorted, `scheme: null` written out), which `init(json:)` reads back to an equal table.
    ///
    /// The bytes are those `JSONSerialization` writes on Linux with `.sortedKeys` and `.withoutEscapingSlashes`
    /// (and `.prettyPrinted`).
    ///
    /// - Parameter prettyPrinted: indent for people (default) or write one line.
    /// - Returns: UTF-8 JSON.
    package func jsonData(prettyPrinted: Bool = true) -> Data {
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
    /// Each route's handler calls `onRoute` with its parameters, then returns the route's `handles`: the routes are
    /// tried in order, so when ``LinkRouter/route(_:parameters:)-(String,_)`` returns `true`, the last call was the accepting
    /// route's. What reading the table found (repeated keys) comes first in the router's ``LinkRouter/diagnostics``.
    ///
    /// - Parameter onRoute: observes every handler call, accepting or not (``RouteKey/pattern`` names the route).
    /// - Returns: a new router.
    public func makeRouter(onRoute: @escaping @Sendable (RouteParameters) -> Void = { _ in }) -> LinkRouter {
        let router = LinkRouter(options: .init(
            decodePlusSymbols: decodePlusSymbols, alwaysTreatsHostAsPathComponent: alwaysTreatsHostAsPathComponent))
        router.report(diagnostics)
        for namespace in namespaces {
            let target: RouteNamespace
            if let scheme = namespace.scheme {
                router.addNamespace(scheme, fallsBackToGlobalRoutes: namespace.fallbackToGlobal)
                target = .scheme(scheme)
            } else {
                target = .global
            }
            for route in namespace.routes {
                let handles = route.handles
                router.addRoute(
                    route.pattern, namespace: target, priority: route.priority, group: route.group, name: route.name
                ) { parameters in
                    onRoute(parameters)
                    return handles
                }
            }
        }
        return router
    }
}
