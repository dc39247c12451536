/// A parsed JSON value that keeps object members in file order.
///
/// Order matters for association files: the oldest AASA form keys `details` by app ID, and iOS walks those
/// details in the order they appear. Numbers keep their source text because no AASA key needs arithmetic.
enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(1); hasher.combine(b)
        case .number(let n): hasher.combine(2); hasher.combine(n)
        case .string(let s): hasher.combine(3); hasher.combine(s)
        case .array(let a): hasher.combine(4); hasher.combine(a)
        case .object(let members):
            hasher.combine(5)
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    /// A short description for "found ..." in diagnostics: the type, and the value when it is short.
    var foundDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return "a boolean (\(b))"
        case .number(let n): return "a number (\(n.count > 20 ? String(n.prefix(20)) + "…" : n))"
        case .string(let s): return "the string \(JSONValue.quoted(s))"
        case .array(let a): return "an array of \(a.count) element\(a.count == 1 ? "" : "s")"
        case .object(let o): return "an object with \(o.count) key\(o.count == 1 ? "" : "s")"
        }
    }

    /// The value of a string, or `nil`.
    var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// Quotes a string for a diagnostic, shortened to 60 characters.
    static func quoted(_ s: String) -> String {
        let shown = s.count > 60 ? String(s.prefix(60)) + "…" : s
        return "\"" + JSONWriter.escape(shown) + "\""
    }
}
