/// Where a route lives: the global routes, or the routes of one URL scheme.
///
/// A URL is routed in the namespace of its scheme (compared case-sensitively) when that namespace exists, and in the
/// global namespace otherwise. A scheme namespace hides the global routes unless it falls back to them.
public enum RouteNamespace: Sendable, Hashable {
    /// The global routes (`JLRoutesGlobalRoutesScheme` in JLRoutes).
    case global
    /// The routes for URLs with this exact scheme.
    case scheme(String)

    /// The name reported under ``RouteKey/scheme``: the scheme, or `JLRoutesGlobalRoutesScheme`.
    package var name: String {
        switch self {
        case .global: RouteKey.globalRoutesScheme
        case .scheme(let scheme): scheme
        }
    }
}
