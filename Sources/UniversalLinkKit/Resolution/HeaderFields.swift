/// The header fields of a ``TransportRequest``: in order, with repeated names kept, looked up case-insensitively.
///
/// ```swift
/// var fields: HeaderFields = ["Accept": "application/json"]
/// fields.append(name: "Cache-Control", value: "no-cache")
/// fields.append(name: "Cache-Control", value: "no-store")
/// fields["accept"]                        // "application/json"
/// fields.values(for: "Cache-Control")    // ["no-cache", "no-store"]
/// ```
public struct HeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name, as given.
        public var name: String
        /// The field value.
        public var value: String

        /// Creates a field.
        ///
        /// - Parameters:
        ///   - name: The name.
        ///   - value: The value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Fields in the given order.
    ///
    /// - Parameter fields: The fields; repeated names are kept.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Fields from a literal, in the literal's order: `["Accept": "application/json"]`.
    ///
    /// - Parameter elements: Names and values.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The number of fields, repeated names counted each time.
    public var count: Int { fields.count }

    /// The first value of a name, compared case-insensitively; setting it replaces every field of the name with
    /// one (or removes them, with `nil`).
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            let index = fields.firstIndex { Self.same($0.name, name) }
            fields.removeAll { Self.same($0.name, name) }
            guard let newValue else { return }
            fields.insert(Field(name: name, value: newValue), at: Swift.min(index ?? fields.count, fields.count))
        }
    }

    /// Every value of a name, in order.
    ///
    /// - Parameter name: The name, compared case-insensitively.
    /// - Returns: Its values.
    public func values(for name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Adds a field after the others, keeping any of the same name.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// The fields, in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    private static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
    }
}
