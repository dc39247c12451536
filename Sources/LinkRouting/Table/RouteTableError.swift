/// Why a route table could not be loaded, naming the key path at fault.
public struct RouteTableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem; an open set, compared with `==`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case invalidJSON, missingKey, typeMismatch, unknownKey, invalidValue
        }
        private let value: Value

        /// The data is not JSON.
        public static let invalidJSON = Code(value: .invalidJSON)
        /// A required key is absent.
        public static let missingKey = Code(value: .missingKey)
        /// A value has the wrong JSON type.
        public static let typeMismatch = Code(value: .typeMismatch)
        /// A key the format does not define (often a typo).
        public static let unknownKey = Code(value: .unknownKey)
        /// A value of the right type that is not allowed (an empty pattern, a scheme listed twice).
        public static let invalidValue = Code(value: .invalidValue)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// The kind of problem.
    public var code: Code
    /// Where: `namespaces[0].routes[2].priority`; empty for the document itself.
    public var keyPath: String
    /// What was expected and what was found, and what to change.
    public var message: String

    /// Creates an error.
    public init(code: Code, keyPath: String, message: String) {
        self.code = code
        self.keyPath = keyPath
        self.message = message
    }

    /// `keyPath: message`.
    public var description: String { keyPath.isEmpty ? message : "\(keyPath): \(message)" }
}
