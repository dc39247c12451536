import Foundation

/// The route a URL matched, and the parameters its handler sees, as plain values.
///
/// In ``RouteExplanation/match`` (no handler called), and given by `LinkManager` for the route whose handler accepted
/// a resolved link. A server that needs to say where a link went logs or returns it as it is:
///
/// ```swift
/// if let matched = router.explain("myapp://products/42?ref=mail")?.match {
///     // matched.pattern == "/products/:id", matched.parameters == ["id": "42", "ref": "mail"]
/// }
/// ```
public struct MatchedRoute: Sendable, Hashable {
    /// The pattern as registered, optional groups and host included (`/path/:thing(/:id)`).
    public var pattern: String
    /// The expansion that matched, as JLRoutes reports it under ``RouteKey/pattern`` (`/path/:thing/:id`); equal to
    /// ``pattern`` when it has no optional group.
    package var expandedPattern: String
    /// The namespace of the route (the global one after a scheme namespace fell back to it).
    public var namespace: RouteNamespace
    /// The route's name, when it was registered with one.
    public var name: String?
    /// The route variables, query items (a fragment query included) and the caller's parameters, as a handler reads
    /// them: percent-decoded, `+` turned into a space when ``LinkRouter/Options/decodePlusSymbols`` is on.
    ///
    /// The precedence is JLRoutes': a route variable hides a query item of the same name, a caller's parameter hides
    /// both. A query item repeated in the URL (`?tag=a&tag=b`) is an array for a handler; here the **last** value
    /// wins (`"b"`), as when the items are read into a dictionary in URL order; read
    /// ``RouteParameters/strings(_:)`` in a handler for all of them. No `JLRoute*` key is included (``namespace`` has
    /// the scheme's).
    public var parameters: [String: String]
    /// The raw path components a `*` captured (possibly none), or `nil` when the pattern has no `*`.
    public var wildcardComponents: [String]?

    /// Creates a matched route (the router makes them; tests of the package may too).
    package init(
        pattern: String, expandedPattern: String? = nil, namespace: RouteNamespace, name: String? = nil,
        parameters: [String: String] = [:], wildcardComponents: [String]? = nil
    ) {
        self.pattern = pattern
        self.expandedPattern = expandedPattern ?? pattern
        self.namespace = namespace
        self.name = name
        self.parameters = parameters
        self.wildcardComponents = wildcardComponents
    }

    /// The matched route of `match`, made from the router's entry.
    init(entry: RouterState.Entry, name: String?, match: RouteMatch, namespace: RouteNamespace) {
        var parameters: [String: String] = [:]
        var wildcard: [String]?
        for (key, value) in match.values {
            switch key {
            case RouteKey.pattern, RouteKey.url, RouteKey.scheme:
                continue
            case RouteKey.wildcardComponents where entry.compiled.hasWildcard:
                if case .strings(let components) = value { wildcard = components }
                continue
            default:
                switch value {
                case .string(let string): parameters[key] = string
                case .strings(let strings): parameters[key] = strings.last
                }
            }
        }
        self.init(
            pattern: entry.declaredPattern, expandedPattern: entry.compiled.pattern, namespace: namespace, name: name,
            parameters: parameters, wildcardComponents: wildcard)
    }
}
