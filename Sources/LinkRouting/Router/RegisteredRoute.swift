/// A route as the router holds it, for listing (``LinkRouter/routes(in:)``).
public struct RegisteredRoute: Sendable, Hashable {
    /// The pattern matched and reported under `JLRoutePattern` (one expansion of an optional-group pattern).
    public var pattern: String
    /// The pattern as given to `addRoute`.
    public var declaredPattern: String
    /// The namespace.
    public var namespace: RouteNamespace
    /// The priority.
    public var priority: Int
    /// The group, if any.
    public var group: String?

    /// Creates a description.
    public init(pattern: String, declaredPattern: String, namespace: RouteNamespace, priority: Int, group: String?) {
        self.pattern = pattern
        self.declaredPattern = declaredPattern
        self.namespace = namespace
        self.priority = priority
        self.group = group
    }
}
