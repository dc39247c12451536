/// Writes JSON in one pass into a byte array, byte for byte as swift-corelibs-foundation's `JSONSerialization` does
/// with `.sortedKeys` and `.withoutEscapingSlashes` (and `.prettyPrinted` when asked): the caller writes members in
/// sorted order, the writer adds the separators and indentation.
///
/// The output format, as Foundation writes it on Linux: compact is `{"k":v,"l":[1,2]}`; pretty indents by two
/// spaces, puts `" : "` between key and value, one member or element a line, and writes an empty container as its
/// brackets with an empty line between them (`[`, ``, `]`); no newline at the end. Strings escape `"`, `\` and the
/// control characters below U+0020 (`\b`, `\t`, `\n`, `\f`, `\r` by name, the rest as `\u00xx` in lower-case
/// hex); everything else, `/`, U+007F, U+2028, U+2029 and all non-ASCII included, is written as its UTF-8.
struct JSONWriter {
    /// The text written so far.
    private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    private static let hexDigits = Array("0123456789abcdef".utf8)
    /// For each open container, whether it has a member or element yet.
    private var open: [Bool] = []

    init(prettyPrinted: Bool) {
        pretty = prettyPrinted
    }

    /// Opens an object (`{`); ``closeObject()`` ends it.
    mutating func openObject() { openContainer(UInt8(ascii: "{")) }
    /// Opens an array (`[`); ``closeArray()`` ends it.
    mutating func openArray() { openContainer(UInt8(ascii: "[")) }
    /// Closes the innermost object.
    mutating func closeObject() { closeContainer(UInt8(ascii: "}")) }
    /// Closes the innermost array.
    mutating func closeArray() { closeContainer(UInt8(ascii: "]")) }

    /// Starts a member of the innermost object: the separator, the key and the colon; the value is written next.
    mutating func key(_ key: String) {
        separate()
        string(key)
        if pretty {
            bytes += [UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: " ")]
        } else {
            bytes.append(UInt8(ascii: ":"))
        }
    }

    /// Starts an element of the innermost array; the value is written next.
    mutating func element() {
        separate()
    }

    /// Writes a string value, escaped.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0..<0x20:
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                          Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes an integer value in decimal.
    mutating func integer(_ value: Int) {
        bytes += Array(String(value).utf8)
    }

    /// Writes `true` or `false`.
    mutating func boolean(_ value: Bool) {
        bytes += Array((value ? "true" : "false").utf8)
    }

    /// Writes `null`.
    mutating func null() {
        bytes += Array("null".utf8)
    }

    private mutating func openContainer(_ bracket: UInt8) {
        bytes.append(bracket)
        open.append(false)
    }

    private mutating func closeContainer(_ bracket: UInt8) {
        let hadMembers = open.removeLast()
        if pretty {
            // Foundation writes an empty container with an empty line inside.
            bytes.append(UInt8(ascii: "\n"))
            if !hadMembers { bytes.append(UInt8(ascii: "\n")) }
            indent()
        }
        bytes.append(bracket)
    }

    /// The comma before every member but the first, then the new line and indentation when pretty.
    private mutating func separate() {
        if open[open.count - 1] {
            bytes.append(UInt8(ascii: ","))
        } else {
            open[open.count - 1] = true
        }
        if pretty {
            bytes.append(UInt8(ascii: "\n"))
            indent()
        }
    }

    private mutating func indent() {
        bytes += repeatElement(UInt8(ascii: " "), count: 2 * open.count)
    }
}
