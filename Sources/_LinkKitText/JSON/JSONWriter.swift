/// The package's one JSON writer and string escaper: deterministic text, members in the order given.
///
/// Strings escape `"`, `\` and the control characters below U+0020 (`\b`, `\t`, `\n`, `\f`, `\r` by name, the rest
/// as `\u00xx` in lower-case hex); everything else, `/`, U+007F, U+2028, U+2029 and all non-ASCII included, is
/// written as its UTF-8. That is what `JSONSerialization` writes with `.withoutEscapingSlashes`, so text written
/// here is byte for byte what it wrote. A ``Style`` chooses the layout; writing is a loop over an explicit stack,
/// whatever the depth.
package struct JSONWriter {
    /// How values are laid out.
    package struct Style: Sendable, Hashable {
        /// Spaces per level, one member or element a line; `nil` writes everything on one line.
        var indentation: Int?
        /// Between a key and its value.
        var keySeparator: [UInt8]
        /// Between members or elements on one line.
        var elementSeparator: [UInt8]
        /// Whether an empty container is written with an empty line inside (`[`, ``, `]`), as Foundation does.
        var opensEmptyContainers: Bool
        /// Arrays of strings whose one-line form, indentation included, fits this many characters stay on one line.
        var stringArrayWidth: Int?

        /// One line, no spaces: `{"k":"v","l":[1,2]}` (`JSONSerialization`'s compact form).
        package static let compact = Style(
            indentation: nil, keySeparator: Array(":".utf8), elementSeparator: Array(",".utf8),
            opensEmptyContainers: false, stringArrayWidth: nil)
        /// One line with a space after each separator: `{"/": "/pub/acc", "exclude": true}`, for messages.
        package static let spaced = Style(
            indentation: nil, keySeparator: Array(": ".utf8), elementSeparator: Array(", ".utf8),
            opensEmptyContainers: false, stringArrayWidth: nil)
        /// Two-space indentation, `"key": value`, `{}` and `[]` when empty, and arrays of strings on one line when
        /// they fit 100 columns: the generated association files, which people read and diff.
        package static let indented = Style(
            indentation: 2, keySeparator: Array(": ".utf8), elementSeparator: Array(", ".utf8),
            opensEmptyContainers: false, stringArrayWidth: 100)
        /// `JSONSerialization`'s `.prettyPrinted` form on Linux: two-space indentation, `"key" : value`, an empty
        /// container with an empty line inside.
        package static let foundationPretty = Style(
            indentation: 2, keySeparator: Array(" : ".utf8), elementSeparator: Array(",".utf8),
            opensEmptyContainers: true, stringArrayWidth: nil)
    }

    private let style: Style
    /// The text written so far.
    private(set) var bytes: [UInt8] = []
    /// For each open container: whether it has a member or element yet, and whether it is written on one line.
    private var open: [(hasChildren: Bool, oneLine: Bool)] = []

    private init(style: Style) {
        self.style = style
    }

    // MARK: - Entry points

    /// The text of `value` in `style`.
    package static func text(_ value: JSONValue, style: Style) -> String {
        String(decoding: bytes(value, style: style), as: UTF8.self)
    }

    /// The UTF-8 text of `value` in `style`.
    package static func bytes(_ value: JSONValue, style: Style) -> [UInt8] {
        var writer = JSONWriter(style: style)
        writer.write(value)
        return writer.bytes
    }

    /// The text of a value read by ``JSONReader``, in `style`.
    package static func text(_ node: JSONNode, style: Style) -> String {
        var writer = JSONWriter(style: style)
        writer.write(node)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// `text` escaped for the inside of a JSON string literal (without the quotes).
    package static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        appendEscaped(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal, quotes included.
    package static func appendQuoted(_ text: String, to output: inout String) {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        appendEscaped(text, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// `text` as a JSON string literal, shortened to 60 characters (then `…`), for a message that quotes a value.
    package static func quotedForMessage(_ text: String) -> String {
        var quoted = ""
        appendQuoted(text.count > 60 ? String(text.prefix(60)) + "…" : text, to: &quoted)
        return quoted
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends the escaped content of `text` (no quotes) to `bytes`.
    package static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                default:
                    bytes.append(contentsOf: [
                        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)],
                        hexDigits[Int(byte & 0xF)],
                    ])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    // MARK: - Walks

    private mutating func write(_ value: JSONValue) {
        // Each entry: a container being written and the index of its next child.
        var stack: [(value: JSONValue, next: Int)] = []
        var current: JSONValue? = value
        while true {
            if let value = current {
                current = nil
                switch value {
                case .null: literal("null")
                case .bool(let flag): literal(flag ? "true" : "false")
                case .number(let text): literal(text)
                case .string(let text): string(text)
                case .array(let elements):
                    openContainer(UInt8(ascii: "["), oneLine: stringArrayFits(elements.lazy.map(\.stringValue), count: elements.count))
                    stack.append((value, 0))
                case .object:
                    openContainer(UInt8(ascii: "{"), oneLine: false)
                    stack.append((value, 0))
                }
            }
            guard let (container, next) = stack.last else { return }
            switch container {
            case .array(let elements) where next < elements.count:
                stack[stack.count - 1].next += 1
                separate()
                current = elements[next]
            case .object(let members) where next < members.count:
                stack[stack.count - 1].next += 1
                key(members[next].key)
                current = members[next].value
            default:
                stack.removeLast()
                closeContainer(container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            }
        }
    }

    private mutating func write(_ root: JSONNode) {
        // Each entry: a container being written and the iterator of its children.
        var stack: [(isObject: Bool, members: JSONNode.Members, elements: JSONNode.Elements)] = []
        var current: JSONNode? = root
        while true {
            if let node = current {
                current = nil
                switch node.kind {
                case .null: literal("null")
                case .boolean: literal(node.bool == true ? "true" : "false")
                case .number: literal(node.numberText ?? "0")
                case .string: string(node.string ?? "")
                case .array:
                    openContainer(UInt8(ascii: "["), oneLine: stringArrayFits(node.elements.lazy.map(\.string), count: node.count))
                    stack.append((false, node.members, node.elements))
                case .object:
                    openContainer(UInt8(ascii: "{"), oneLine: false)
                    stack.append((true, node.members, node.elements))
                }
            }
            guard !stack.isEmpty else { return }
            let top = stack.count - 1
            if stack[top].isObject {
                if let member = stack[top].members.next() {
                    key(member.key)
                    current = member.value
                    continue
                }
            } else if let element = stack[top].elements.next() {
                separate()
                current = element
                continue
            }
            let isObject = stack.removeLast().isObject
            closeContainer(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    /// Whether an array of these elements goes on one line: all strings, and short enough (``Style/stringArrayWidth``).
    private func stringArrayFits(_ strings: some Sequence<String?>, count: Int) -> Bool {
        guard let width = style.stringArrayWidth, count > 0 else { return false }
        var line: [UInt8] = [UInt8(ascii: "[")]
        for (index, text) in strings.enumerated() {
            guard let text else { return false }
            if index > 0 { line += style.elementSeparator }
            line.append(UInt8(ascii: "\""))
            Self.appendEscaped(text, to: &line)
            line.append(UInt8(ascii: "\""))
        }
        line.append(UInt8(ascii: "]"))
        // Characters, as a reader counts columns.
        return String(decoding: line, as: UTF8.self).count + (open.count * (style.indentation ?? 0)) <= width
    }

    // MARK: - Output

    private mutating func literal(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        Self.appendEscaped(text, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func key(_ key: String) {
        separate()
        string(key)
        bytes += style.keySeparator
    }

    private mutating func openContainer(_ bracket: UInt8, oneLine: Bool) {
        bytes.append(bracket)
        open.append((false, oneLine || style.indentation == nil))
    }

    private mutating func closeContainer(_ bracket: UInt8) {
        let (hasChildren, oneLine) = open.removeLast()
        if !oneLine, hasChildren || style.opensEmptyContainers {
            newLine()
            if !hasChildren { newLine() }
            indent()
        }
        bytes.append(bracket)
    }

    /// The separator before every member or element but the first, then the new line and indentation.
    private mutating func separate() {
        let top = open.count - 1
        if open[top].hasChildren {
            bytes += open[top].oneLine ? style.elementSeparator : [UInt8(ascii: ",")]
        } else {
            open[top].hasChildren = true
        }
        if !open[top].oneLine {
            newLine()
            indent()
        }
    }

    private mutating func newLine() {
        bytes.append(UInt8(ascii: "\n"))
    }

    private mutating func indent() {
        bytes += repeatElement(UInt8(ascii: " "), count: open.count * (style.indentation ?? 0))
    }
}

extension JSONValue {
    fileprivate var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    fileprivate var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}
