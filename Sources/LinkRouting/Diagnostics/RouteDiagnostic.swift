/// A warning about a route, produced when it is registered.
///
/// Registration does not fail: JLRoutes accepts these routes too. The diagnostics say what will surprise you. The
/// one exception is ``Kind/tooLarge``: a route past the index's 32-bit limits, far beyond any real table.
public struct RouteDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong; an open set, compared with `==`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, Sendable, Hashable {
            case duplicate, shadowed, conflictingVariableNames, wildcardNotAtEnd, unbalancedParentheses, tooManyOptionalGroups,
                 duplicateName, tooLarge
        }
        private let code: Code

        /// The same pattern is already registered in the namespace; this one runs only if that one declines.
        public static let duplicate = Kind(code: .duplicate)
        /// An earlier-ranked route matches every URL this one matches; this one runs only if that one declines.
        public static let shadowed = Kind(code: .shadowed)
        /// A variable name appears twice in the pattern, or is a reserved key.
        public static let conflictingVariableNames = Kind(code: .conflictingVariableNames)
        /// `*` is followed by more components, which are ignored.
        public static let wildcardNotAtEnd = Kind(code: .wildcardNotAtEnd)
        /// `(` and `)` do not pair up.
        public static let unbalancedParentheses = Kind(code: .unbalancedParentheses)
        /// The pattern has more than 10 optional groups and parts, so it is not expanded (that would make more than
        /// 1 024 routes): it is registered as written, its parentheses literal.
        public static let tooManyOptionalGroups = Kind(code: .tooManyOptionalGroups)
        /// The route's name was already given to another route; the name now refers to this one.
        public static let duplicateName = Kind(code: .duplicateName)
        /// The route is past what the router can index: a pattern over 1 GiB, or a namespace over 2^31 - 1 index
        /// nodes, literal edges or literal bytes. It is not registered (the only warning that means so).
        public static let tooLarge = Kind(code: .tooLarge)

        /// The kind's name, e.g. `shadowed`.
        public var description: String { code.rawValue }
    }

    /// What is wrong.
    public var kind: Kind
    /// The pattern as registered.
    public var pattern: String
    /// The namespace it was registered in.
    public var namespace: RouteNamespace
    /// The other route involved (for ``Kind/duplicate``, ``Kind/shadowed`` and ``Kind/duplicateName``).
    public var relatedPattern: String?
    /// A sentence naming the route and the problem.
    public var message: String

    /// Creates a diagnostic.
    public init(kind: Kind, pattern: String, namespace: RouteNamespace, relatedPattern: String? = nil, message: String) {
        self.kind = kind
        self.pattern = pattern
        self.namespace = namespace
        self.relatedPattern = relatedPattern
        self.message = message
    }

    /// `namespace: pattern: message`.
    public var description: String { "\(namespace.name): \(pattern): \(message)" }
}
