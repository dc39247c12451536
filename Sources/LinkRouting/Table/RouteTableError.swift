internal import _LinkKitText

/// Why a route table could not be loaded, naming the key path at fault.
///
/// Switch over ``code`` (keep a `default` case: the set of codes may grow), show ``description`` to people.
public struct RouteTableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public var code: Code
    /// Where: `namespaces[0].routes[2].priority`; empty for the document itself.
    public var keyPath: String
    /// What was expected and what was found, and what to change.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - keyPath: Where in the table; empty for the document itself.
    ///   - message: What was expected, what was found, and what to change.
    public init(code: Code, keyPath: String, message: String) {
        self.code = code
        self.keyPath = keyPath
        self.message = message
    }

    /// `keyPath: message`.
    public var description: String { keyPath.isEmpty ? message : "\(keyPath): \(message)" }
}

extension RouteTableError {
    /// The kind of a ``RouteTableError``: an open set of static members, compared with `==` or matched in a `switch`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Storage: Int, ErrorCodeStorage, CaseIterable {
            case invalidJSON = 1
            case missingKey
            case typeMismatch
            case unknownKey
            case invalidValue
        }

        let storage: Storage

        init(_ storage: Storage) {
            self.storage = storage
        }

        /// The data is not JSON.
        public static var invalidJSON: Self { .init(.invalidJSON) }
        /// A required key is absent.
        public static var missingKey: Self { .init(.missingKey) }
        /// A value has the wrong JSON type.
        public static var typeMismatch: Self { .init(.typeMismatch) }
        /// A key the format does not define (often a typo).
        public static var unknownKey: Self { .init(.unknownKey) }
        /// A value of the right type that is not allowed (an empty pattern, a scheme listed twice).
        public static var invalidValue: Self { .init(.invalidValue) }

        /// The code's name, spelled as its static member: `"invalidJSON"`, `"missingKey"`, ...
        public var description: String { storage.name }

        /// A stable integer for the code (1 = `invalidJSON` ... 5 = `invalidValue`), as `LinkError.Code` has.
        public var rawValue: Int { storage.rawValue }
    }
}
