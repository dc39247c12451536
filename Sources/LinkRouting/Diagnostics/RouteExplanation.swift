import Foundation

/// What ``LinkRouter/explain(_:)->RouteExplanation?`` found: which route would match a URL, or why none does.
public struct RouteExplanation: Sendable, Hashable, CustomStringConvertible {
    /// A route that came close: how far it matched and where it stopped.
    public struct NearMiss: Sendable, Hashable, CustomStringConvertible {
        /// The pattern (the expansion, for optional groups).
        public var pattern: String
        /// Its namespace.
        public var namespace: RouteNamespace
        /// How many leading path components matched.
        public var matchedComponents: Int
        /// Why it does not match.
        public var reason: String

        /// `pattern: reason`.
        public var description: String { "\(pattern) (\(namespace.name)): \(reason)" }
    }

    /// The URL explained.
    public var url: URL
    /// The namespace the URL's scheme selects.
    public var namespace: RouteNamespace
    /// The path components matched against (still percent-encoded).
    public var pathComponents: [String]
    /// The pattern of the first route that matches, if any (handlers are not called, as with `canRoute`).
    public var matchedPattern: String?
    /// The namespace of that route (the global one after a fallback).
    public var matchedNamespace: RouteNamespace?
    /// When nothing matches: the closest routes, most components matched first.
    public var nearMisses: [NearMiss]

    /// Creates an explanation.
    public init(
        url: URL, namespace: RouteNamespace, pathComponents: [String], matchedPattern: String?,
        matchedNamespace: RouteNamespace?, nearMisses: [NearMiss]
    ) {
        self.url = url
        self.namespace = namespace
        self.pathComponents = pathComponents
        self.matchedPattern = matchedPattern
        self.matchedNamespace = matchedNamespace
        self.nearMisses = nearMisses
    }

    /// A readable multi-line report.
    public var description: String {
        var lines = ["\(url.absoluteString) -> namespace \(namespace.name), components \(pathComponents)"]
        if let matchedPattern, let matchedNamespace {
            lines.append("matches \(matchedPattern) (\(matchedNamespace.name))")
        } else if nearMisses.isEmpty {
            lines.append("no route matches: the namespace has no enabled routes")
        } else {
            lines.append("no route matches; nearest:")
            lines += nearMisses.map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}
