/// One value of a ``JSONDocument``: its kind, its content, its members or elements, and where it is.
///
/// Accessors that do not match the value's kind return `nil` (or empty), so a caller states what it expected and
/// reports ``summary`` and ``keyPath`` when the value is something else.
package struct JSONNode: Sendable {
    /// The document that holds the value.
    package let document: JSONDocument
    let index: Int

    var node: JSONDocument.Node { document.nodes[index] }

    /// What the value is.
    package var kind: JSONDocument.Kind { node.kind }

    /// Whether the value is `null`.
    package var isNull: Bool { node.kind == .null }

    /// The string, or `nil` when the value is not a string.
    package var string: String? {
        let node = self.node
        return node.kind == .string ? document.strings[Int(node.payload)] : nil
    }

    /// The boolean, or `nil` when the value is not `true` or `false`.
    package var bool: Bool? {
        let node = self.node
        return node.kind == .boolean ? node.payload != 0 : nil
    }

    /// The number as written (`1.5e3`), or `nil` when the value is not a number.
    package var numberText: String? {
        let node = self.node
        return node.kind == .number ? document.strings[Int(node.payload)] : nil
    }

    /// The number if it is an integer `Int` holds, however it is written (`100`, `1e2`, `100.0`), else `nil`.
    package var integer: Int? {
        numberText.flatMap(JSONNumber.exactInteger)
    }

    /// How many members (without repetitions) or elements a container has; 0 for any other value.
    package var count: Int {
        let node = self.node
        return node.kind == .array || node.kind == .object ? Int(node.payload) : 0
    }

    /// An object's members in document order (a repeated key once, with its last value); empty for any other value.
    package var members: Members { Members(document: document, container: node.kind == .object ? index : -1) }

    /// An array's elements in order; empty for any other value.
    package var elements: Elements { Elements(document: document, container: node.kind == .array ? index : -1) }

    /// The value of member `key` (its last value if the key repeats), or `nil` when the value is not an object or
    /// has no such member.
    package func member(_ key: String) -> JSONNode? {
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// Where the value is: `applinks.details[0].components[2]["/"]`.
    package var keyPath: JSONKeyPath {
        var components: [JSONKeyPath.Component] = []
        var current = index
        while true {
            let node = document.nodes[current]
            guard node.parent >= 0 else { break }
            if node.key >= 0 {
                components.append(.key(document.strings[Int(node.key)]))
            } else {
                components.append(.index(Int(node.position)))
            }
            current = Int(node.parent)
        }
        return JSONKeyPath(components.reversed())
    }

    /// A short description for "found ..." in diagnostics: the kind, and the value when it is short:
    /// `null`, `a boolean (true)`, `a number (1.5)`, `the string "abc"`, `an array of 2 elements`,
    /// `an object with 1 key`.
    package var summary: String {
        switch kind {
        case .null: return "null"
        case .boolean: return "a boolean (\(bool ?? false))"
        case .number:
            let text = numberText ?? ""
            return "a number (\(text.count > 20 ? String(text.prefix(20)) + "…" : text))"
        case .string: return "the string \(JSONWriter.quotedForMessage(string ?? ""))"
        case .array: return "an array of \(count) element\(count == 1 ? "" : "s")"
        case .object: return "an object with \(count) key\(count == 1 ? "" : "s")"
        }
    }

    /// The members of an object.
    package struct Members: Sequence, IteratorProtocol {
        let document: JSONDocument
        var cursor: Int
        let end: Int

        init(document: JSONDocument, container: Int) {
            self.document = document
            if container >= 0 {
                cursor = container + 1
                end = Int(document.nodes[container].end)
            } else {
                cursor = 0
                end = 0
            }
        }

        /// The next key and its value.
        package mutating func next() -> (key: String, value: JSONNode)? {
            while cursor < end {
                let index = cursor
                let node = document.nodes[index]
                cursor = Int(node.end)
                guard !node.isRepeatedKey else { continue }
                let value = node.replacement >= 0 ? Int(node.replacement) : index
                return (document.strings[Int(node.key)], JSONNode(document: document, index: value))
            }
            return nil
        }
    }

    /// The elements of an array.
    package struct Elements: Sequence, IteratorProtocol {
        let document: JSONDocument
        var cursor: Int
        let end: Int

        init(document: JSONDocument, container: Int) {
            self.document = document
            if container >= 0 {
                cursor = container + 1
                end = Int(document.nodes[container].end)
            } else {
                cursor = 0
                end = 0
            }
        }

        /// The next element.
        package mutating func next() -> JSONNode? {
            guard cursor < end else { return nil }
            let index = cursor
            cursor = Int(document.nodes[index].end)
            return JSONNode(document: document, index: index)
        }
    }
}
