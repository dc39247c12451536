/// Writes JSON text with stable key order and two-space indentation, so generated files diff cleanly.
enum JSONWriter {
    /// Escapes a string's content for a JSON string literal (without the quotes). `/` stays unescaped.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Serialises a value; objects keep their member order.
    static func write(_ value: JSONValue, indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent)
        let inner = String(repeating: "  ", count: indent + 1)
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n
        case .string(let s): return "\"" + escape(s) + "\""
        case .array(let elements):
            if elements.isEmpty { return "[]" }
            if elements.allSatisfy({ if case .string = $0 { return true } else { return false } }) {
                let oneLine = "[" + elements.map { write($0) }.joined(separator: ", ") + "]"
                if oneLine.count + indent * 2 <= 100 { return oneLine }
            }
            return "[\n" + elements.map { inner + write($0, indent: indent + 1) }.joined(separator: ",\n")
                + "\n" + pad + "]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            return "{\n"
                + members.map { inner + "\"" + escape($0.key) + "\": " + write($0.value, indent: indent + 1) }
                    .joined(separator: ",\n")
                + "\n" + pad + "}"
        }
    }
}
