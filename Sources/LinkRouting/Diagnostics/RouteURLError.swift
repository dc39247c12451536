internal import _LinkKitText

/// Why ``LinkRouter/url(forRoute:parameters:scheme:)`` could not build a URL.
///
/// Switch over ``code`` (keep a `default` case: the set of codes may grow), show ``description`` to people.
public struct RouteURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public var code: Code
    /// The route name asked for.
    public var routeName: String
    /// What happened and what to change.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - routeName: The route name asked for.
    ///   - message: What happened and what to change.
    public init(code: Code, routeName: String, message: String) {
        self.code = code
        self.routeName = routeName
        self.message = message
    }

    /// `route 'name': message`.
    public var description: String { "route '\(routeName)': \(message)" }
}

extension RouteURLError {
    /// The kind of a ``RouteURLError``: an open set of static members, compared with `==` or matched in a `switch`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Storage: Int, ErrorCodeStorage, CaseIterable {
            case unknownRoute = 1
            case missingParameter
            case missingScheme
            case unrepresentableValue
        }

        let storage: Storage

        init(_ storage: Storage) {
            self.storage = storage
        }

        /// No live route has this name (never given, or its route was removed).
        public static var unknownRoute: Self { .init(.unknownRoute) }
        /// A `:variable` of the route has no value, whichever optional groups are left out.
        public static var missingParameter: Self { .init(.missingParameter) }
        /// A global route needs a URL scheme, and none was given.
        public static var missingScheme: Self { .init(.missingScheme) }
        /// The parameters cannot be written so that the route reads them back unchanged (a `+` while the router
        /// decodes `+` as a space, a value ending in `#`, an empty last component), or the route's host is a
        /// wildcard (`https://*.example.com/...`).
        public static var unrepresentableValue: Self { .init(.unrepresentableValue) }

        /// The code's name, spelled as its static member: `"unknownRoute"`, `"missingParameter"`, ...
        public var description: String { storage.name }

        /// A stable integer for the code (1 = `unknownRoute` ... 4 = `unrepresentableValue`), as `LinkError.Code` has.
        public var rawValue: Int { storage.rawValue }
    }
}
