internal import _LinkKitText

/// Why a route table could not be read, or ``LinkRouter/url(forRoute:parameters:scheme:)`` could not build a URL.
///
/// Switch over ``code`` (keep a `default` case: the set of codes may grow), show ``description`` to people.
///
/// ```swift
/// do {
///     _ = try RouteTable(json: Data(#"{"namespaces": [{"routes": [{"pattern": 7}]}]}"#.utf8))
/// } catch {
///     print(error)   // namespaces[0].routes[0].pattern: expected a string, found the number 7
/// }
/// ```
public struct RouteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public var code: Code
    /// Where: the key path in the route table (`namespaces[0].routes[2].priority`, empty for the document itself),
    /// or the route name given to ``LinkRouter/url(forRoute:parameters:scheme:)``.
    public var subject: String
    /// What happened and what to change.
    public var message: String

    package init(code: Code, subject: String, message: String) {
        self.code = code
        self.subject = subject
        self.message = message
    }

    /// `keyPath: message` for a route table, `route 'name': message` for a URL.
    public var description: String {
        if code.isAboutURLs { return "route '\(subject)': \(message)" }
        return subject.isEmpty ? message : "\(subject): \(message)"
    }
}

extension RouteError {
    /// The kind of a ``RouteError``: an open set of static members, compared with `==` or matched in a `switch`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Storage: Int, ErrorCodeStorage, CaseIterable {
            case invalidJSON = 1
            case missingKey
            case typeMismatch
            case unknownKey
            case invalidValue
            case unknownRoute
            case missingParameter
            case missingScheme
            case unrepresentableValue
        }

        let storage: Storage

        init(_ storage: Storage) {
            self.storage = storage
        }

        /// The route table is not JSON (or nests deeper than 512 levels).
        public static var invalidJSON: Self { .init(.invalidJSON) }
        /// A required key of the route table is absent.
        public static var missingKey: Self { .init(.missingKey) }
        /// A value of the route table has the wrong JSON type.
        public static var typeMismatch: Self { .init(.typeMismatch) }
        /// A key the route table format does not define (often a typo).
        public static var unknownKey: Self { .init(.unknownKey) }
        /// A value of the right type that is not allowed (an empty pattern, a scheme listed twice, optional groups
        /// past the table's budget).
        public static var invalidValue: Self { .init(.invalidValue) }
        /// No live route has the name given to ``LinkRouter/url(forRoute:parameters:scheme:)``.
        public static var unknownRoute: Self { .init(.unknownRoute) }
        /// A `:variable` of the route has no value, whichever optional groups are left out.
        public static var missingParameter: Self { .init(.missingParameter) }
        /// A global route needs a URL scheme, and none was given.
        public static var missingScheme: Self { .init(.missingScheme) }
        /// The parameters cannot be written so that the route reads them back unchanged (a `+` while the router
        /// decodes `+` as a space, a value ending in `#`, an empty last component), or the route's host is a
        /// wildcard (`https://*.example.com/...`).
        public static var unrepresentableValue: Self { .init(.unrepresentableValue) }

        /// The code's name, spelled as its static member: `"invalidJSON"`, `"unknownRoute"`, ...
        public var description: String { storage.name }

        /// Whether the code is one of URL generation's.
        var isAboutURLs: Bool { storage.rawValue >= Storage.unknownRoute.rawValue }
    }
}
