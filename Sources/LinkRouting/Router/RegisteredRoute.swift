/// A route as the router holds it, for listing (``LinkRouter/routes(in:)``).
package struct RegisteredRoute: Sendable, Hashable {
    /// The pattern matched and reported under `JLRoutePattern` (one expansion of an optional-group pattern).
    package var pattern: String
    /// The pattern as given to `addRoute`.
    package var declaredPattern: String
    /// The namespace.
    package var namespace: RouteNamespace
    /// The priority.
    package var priority: Int
    /// The group, if any.
    package var group: String?

    /// Creates a description.
    package init(pattern: String, declaredPattern: String, namespace: RouteNamespace, priority: Int, group: String?) {
        self.pattern = pattern
        self.declaredPattern = declaredPattern
        self.namespace = namespace
        self.priority = priority
        self.group = group
    }
}
