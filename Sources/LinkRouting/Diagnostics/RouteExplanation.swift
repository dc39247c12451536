/// What ``LinkRouter/explain(_:)`` found: which route a URL matches, or the routes that came closest and where each
/// stops matching.
///
/// Its ``description`` is the readable report `linux-host route --explain` prints: the URL, the namespace its scheme
/// selects and the path components matched against (still percent-encoded, the host first when it counts as one),
/// then the match or the near misses.
public struct RouteExplanation: Sendable, Hashable, CustomStringConvertible {
    /// The URL explained, as given.
    package var url: String
    /// The namespace the URL's scheme selects.
    package var namespace: RouteNamespace
    /// The path components matched against, still percent-encoded (the host first when it counts as one).
    package var pathComponents: [String]
    /// The first route that matches, the one JLRoutes' ranking tries first (handlers are not called, so one that
    /// would decline still counts, as with ``LinkRouter/canRoute(_:)``); `nil` when none does.
    ///
    /// ```swift
    /// router.addRoute("/products/:id", name: "product") { _ in true }
    /// let matched = router.explain("myapp://products/42?ref=mail")?.match
    /// // matched?.pattern == "/products/:id", matched?.parameters == ["id": "42", "ref": "mail"]
    /// ```
    public var match: MatchedRoute?
    /// When nothing matches, the closest routes (most components matched first, then in trial order), each as
    /// `pattern (namespace): why it stops matching`, for instance
    /// `/user/view/:userID (JLRoutesGlobalRoutesScheme): component 1 is 'edit', the pattern expects 'view'`.
    public var nearMisses: [String]

    package init(url: String, namespace: RouteNamespace, pathComponents: [String], match: MatchedRoute?, nearMisses: [String]) {
        self.url = url
        self.namespace = namespace
        self.pathComponents = pathComponents
        self.match = match
        self.nearMisses = nearMisses
    }

    /// A readable report over several lines: the URL, its namespace and components, then the match or the near misses.
    public var description: String {
        var lines = ["\(url) -> namespace \(namespace.name), components \(pathComponents)"]
        if let match {
            lines.append("matches \(match.expandedPattern) (\(match.namespace.name))")
        } else if nearMisses.isEmpty {
            lines.append("no route matches: the namespace has no enabled routes")
        } else {
            lines.append("no route matches; nearest:")
            lines += nearMisses.map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}
