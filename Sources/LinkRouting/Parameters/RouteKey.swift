/// The reserved parameter keys, spelled exactly as JLRoutes spells them, so ported handlers keep working.
public enum RouteKey {
    /// The pattern that matched (for an optional-group route, the expansion that matched).
    public static let pattern = "JLRoutePattern"
    /// The URL being routed, as its absolute string in ``RouteParameters/values``.
    public static let url = "JLRouteURL"
    /// The namespace whose route matched: its scheme, or ``globalRoutesScheme`` for the global routes.
    public static let scheme = "JLRouteScheme"
    /// The raw path components captured by a `*`, an array of strings (possibly empty).
    public static let wildcardComponents = "JLRouteWildcardComponents"
    /// The value of ``scheme`` for routes of the global namespace.
    public static let globalRoutesScheme = "JLRoutesGlobalRoutesScheme"
}
