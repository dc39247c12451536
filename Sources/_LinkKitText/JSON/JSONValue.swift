/// A JSON value built by the package to be written: objects keep the order their members are given in.
///
/// The reader's side is ``JSONDocument``; this is the writer's: generated association files, route table dumps,
/// console lines, report lines. Numbers are text, so a caller writes exactly the digits it means.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One member of an object.
    package struct Member: Sendable, Hashable {
        package var key: String
        package var value: JSONValue

        package init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An integer.
    package static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A string, or `null` for `nil`.
    package static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// A boolean, or `null` for `nil`.
    package static func bool(_ value: Bool?) -> JSONValue { value.map { .bool($0) } ?? .null }

    /// An object of `members` in the order given.
    package static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(members.map { Member($0.key, $0.value) })
    }
}
