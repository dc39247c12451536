/// A JSON text as the reader leaves it: the text, and every value in one flat array in document order, so that
/// reading, walking and freeing a document are loops whatever its depth, and a value knows its parent (hence its
/// key path).
///
/// Strings and numbers stay in the text until asked for: a document costs its text and 20 bytes a value.
///
/// Objects keep their members in document order. A key repeated in one object keeps its last value at the place
/// of its first occurrence (as `JSONSerialization` and Android's `JSONObject` read it); the repetition is listed in
/// ``duplicateKeys`` so that a caller can warn about it.
package final class JSONDocument: Sendable {
    /// What a value is.
    package enum Kind: UInt8, Sendable {
        case null, boolean, number, string, array, object
    }

    /// One value. A container is followed by its children, each child's subtree before the next child.
    struct Node: Sendable {
        var kind: Kind
        /// ``Flags``.
        var flags: UInt8
        /// The parent container's index, or -1 for the document's value.
        var parent: Int32
        /// The offset of the member's key (its opening quote) in the text, or -1 for an array element or the
        /// document's value.
        var key: Int32
        /// A string's (its opening quote) or number's offset in the text, a boolean's value (0 or 1), or a
        /// container's count of children (members without repetitions).
        var payload: Int32
        /// A string's or number's end offset in the text (past its closing quote or last digit); for a container,
        /// the index just past its subtree.
        var end: Int32

        /// The index just past this value's subtree.
        @inline(__always)
        func next(after index: Int) -> Int {
            kind == .array || kind == .object ? Int(end) : index + 1
        }
    }

    enum Flags {
        /// The member's key repeats an earlier key of its object: walks skip it (the earlier member shows its value).
        static let isRepeatedKey: UInt8 = 1
        /// The string holds a backslash escape.
        static let valueHasEscapes: UInt8 = 2
        /// The member's key holds a backslash escape.
        static let keyHasEscapes: UInt8 = 4
    }

    /// The UTF-8 text, checked.
    let text: [UInt8]
    let nodes: [Node]
    /// For a member whose key repeats later in its object: the index of the member whose value replaces its value.
    let replacements: [Int32: Int32]
    /// The members whose key repeats an earlier key of the same object, in document order.
    let repeatedMembers: [Int32]

    init(text: [UInt8], nodes: [Node], replacements: [Int32: Int32], repeatedMembers: [Int32]) {
        self.text = text
        self.nodes = nodes
        self.replacements = replacements
        self.repeatedMembers = repeatedMembers
    }

    /// The key paths of the members whose key repeats an earlier key of the same object, in document order.
    package var duplicateKeys: [JSONKeyPath] {
        guard !repeatedMembers.isEmpty else { return [] }
        // Every element's index, in one pass, so that many repetitions in a long array cost its length once.
        var positions = [Int32](repeating: 0, count: nodes.count)
        var index = 0
        while index < nodes.count {
            let node = nodes[index]
            if node.kind == .array || node.kind == .object {
                var child = index + 1
                var position: Int32 = 0
                while child < Int(node.end) {
                    positions[child] = position
                    position += 1
                    child = nodes[child].next(after: child)
                }
            }
            index += 1
        }
        return repeatedMembers.map { JSONNode(document: self, index: Int($0)).keyPath(positions: positions) }
    }

    /// The document's value.
    package var root: JSONNode { JSONNode(document: self, index: 0) }

    /// How many values the document holds, repeated members included.
    package var valueCount: Int { nodes.count }

    /// The string whose opening quote is at `start` and whose closing quote is before `end`, escapes decoded.
    func string(from start: Int32, to end: Int32, escaped: Bool) -> String {
        text.withUnsafeBufferPointer { text in
            let content = UnsafeBufferPointer(rebasing: text[Int(start) + 1..<Int(end) - 1])
            return escaped ? JSONDocument.unescaped(content) : String(decoding: content, as: UTF8.self)
        }
    }

    /// The string a checked literal's content denotes.
    static func unescaped(_ content: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(content.count)
        var index = 0
        while index < content.count {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            let escape = content[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(content, at: index)
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex4(content, at: index + 2) - 0xDC00)
                    index += 6
                }
                // The reader refused lone surrogates, so every scalar here is valid.
                UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { out.append($0) }
            default: out.append(escape)  // `"`, `\`, `/`
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt8 = switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: byte - UInt8(ascii: "A") + 10
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The offset just past the closing quote of the checked string literal whose opening quote is at `start`.
    func endOfString(at start: Int32) -> Int32 {
        var index = Int(start) + 1
        while text[index] != UInt8(ascii: "\"") {
            index += text[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return Int32(truncatingIfNeeded: index + 1)
    }

    /// The key of member `node`.
    func key(of node: Node) -> String {
        string(from: node.key, to: endOfString(at: node.key), escaped: node.flags & Flags.keyHasEscapes != 0)
    }

    /// Whether member `node`'s key is `key`, compared without building a string when the key has no escape.
    func keyEquals(_ node: Node, _ key: String) -> Bool {
        guard node.flags & Flags.keyHasEscapes == 0 else { return self.key(of: node) == key }
        let start = Int(node.key) + 1
        var key = key
        return key.withUTF8 { utf8 in
            guard start + utf8.count < text.count, text[start + utf8.count] == UInt8(ascii: "\"") else { return false }
            for i in 0..<utf8.count {
                // A quote or backslash in `key` is escaped in any literal equal to it: not this one.
                guard text[start + i] == utf8[i], utf8[i] != UInt8(ascii: "\""), utf8[i] != UInt8(ascii: "\\") else {
                    return false
                }
            }
            return true
        }
    }
}
