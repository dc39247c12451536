/// A JSON value built by the package to be written: objects keep the order their members are given in.
///
/// The reader's side is ``JSONDocument``; this is the writer's: generated association files, route table dumps,
/// console lines, the stub's answers. Numbers are text, so a caller writes exactly the digits it means.
package enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// An integer.
    package static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A string, or `null` for `nil`.
    package static func stringOrNull(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// A boolean, or `null` for `nil`.
    package static func boolOrNull(_ value: Bool?) -> JSONValue { value.map { .bool($0) } ?? .null }
}
