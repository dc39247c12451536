/// A warning about a route or a route table, produced when the route is registered or the table is read.
///
/// Registration does not fail: JLRoutes accepts these routes too, and the diagnostics say what will surprise you. The
/// one exception is `tooLarge`: a route past the index's 32-bit limits, far beyond any real table, is not registered.
///
/// ```swift
/// let router = LinkRouter()
/// router.addRoute("/user/:id") { _ in true }
/// let warnings = router.addRoute("/user/:name") { _ in true }
/// // warnings[0].code == "duplicate"
/// ```
public struct RouteDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// What a diagnostic is about: a stable name, compared with a string literal (`diagnostic.code == "shadowed"`).
    ///
    /// The names, listed with their meaning in <doc:APIAtAGlance>: `duplicate`, `shadowed`, `duplicateName`,
    /// `conflictingVariableNames`, `wildcardNotAtEnd`, `unbalancedParentheses`, `tooManyOptionalGroups`, `tooLarge`
    /// (routes), `duplicateKey` (route tables). New names may be added.
    public struct Code: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The name, such as `shadowed`.
        package let rawValue: String

        /// Creates a code from a string literal, for comparisons: `diagnostic.code == "shadowed"`.
        ///
        /// - Parameter value: The name.
        public init(stringLiteral value: String) {
            self.rawValue = value
        }

        /// The name, such as `shadowed`: what JSON output carries.
        public var description: String { rawValue }

        /// The same pattern is already registered in the namespace; this one runs only if that one declines.
        package static let duplicate: Self = "duplicate"
        /// An earlier-ranked route matches every URL this one matches; this one runs only if that one declines.
        package static let shadowed: Self = "shadowed"
        /// A variable name appears twice in the pattern, or is a reserved key.
        package static let conflictingVariableNames: Self = "conflictingVariableNames"
        /// `*` is followed by more components, which are ignored.
        package static let wildcardNotAtEnd: Self = "wildcardNotAtEnd"
        /// `(` and `)` do not pair up.
        package static let unbalancedParentheses: Self = "unbalancedParentheses"
        /// More than 10 optional groups and parts: the pattern is registered as written, its parentheses literal.
        package static let tooManyOptionalGroups: Self = "tooManyOptionalGroups"
        /// The route's name was already given to another route; the name refers to this one from here on.
        package static let duplicateName: Self = "duplicateName"
        /// The route is past what the index can hold (a pattern over 1 GiB, a namespace over 2^31 - 1 nodes, literal
        /// edges or literal bytes); it is not registered.
        package static let tooLarge: Self = "tooLarge"
        /// A key appears twice in one object of a route table; the last value counts.
        package static let duplicateKey: Self = "duplicateKey"
    }

    /// What the diagnostic is about.
    public var code: Code
    /// Where: the pattern as registered (`/user/:id`), or for `duplicateKey` the key path in the route table
    /// (`namespaces[0].routes[2].priority`).
    public var subject: String
    /// A sentence naming the route (or key) and the problem, and what happens because of it.
    public var message: String
    /// The namespace of the route; `nil` for a finding about a route table's JSON.
    package var namespace: RouteNamespace?
    /// The other route involved (for `duplicate`, `shadowed` and `duplicateName`).
    package var relatedPattern: String?

    package init(
        code: Code, subject: String, namespace: RouteNamespace?, relatedPattern: String? = nil, message: String
    ) {
        self.code = code
        self.subject = subject
        self.namespace = namespace
        self.relatedPattern = relatedPattern
        self.message = message
    }

    /// `namespace: pattern: message` for a route, `keyPath: message` for a route table's key.
    public var description: String {
        guard let namespace else { return "\(subject): \(message)" }
        return "\(namespace.name): \(subject): \(message)"
    }
}
