/// The package's one escaper for text put into HTML or XML: the campaign report's page, the doctor's JUnit report
/// and the generated Android intent filters.
///
/// The result is safe as element content and inside a double-quoted attribute value (the only quoting the package
/// writes): `&`, `<`, `>` and `"` become references, a line feed and a carriage return become `&#10;` and `&#13;`
/// (an attribute keeps its line breaks that way, where a raw one would read as a space), a tab stays. Every other
/// control character (C0, DEL) and the noncharacters U+FFFE and U+FFFF, which XML 1.0 does not allow and which
/// could act on a terminal showing the file, are shown as text (`[U+001B]`), so a hostile link neither breaks the
/// document nor hides in it.
package enum MarkupEscaping {
    /// `text` escaped for HTML or XML content and attribute values.
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "[U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
