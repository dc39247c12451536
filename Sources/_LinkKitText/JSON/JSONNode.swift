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
        guard node.kind == .string else { return nil }
        return document.string(from: node.payload, to: node.end, escaped: node.flags & JSONDocument.Flags.valueHasEscapes != 0)
    }

    /// The boolean, or `nil` when the value is not `true` or `false`.
    package var bool: Bool? {
        let node = self.node
        return node.kind == .boolean ? node.payload != 0 : nil
    }

    /// The number as written (`1.5e3`), or `nil` when the value is not a number.
    package var numberText: String? {
        let node = self.node
        guard node.kind == .number else { return nil }
        return String(decoding: document.text[Int(node.payload)..<Int(node.end)], as: UTF8.self)
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
        guard node.kind == .object else { return nil }
        let nodes = document.nodes
        var child = index + 1
        let end = Int(nodes[index].end)
        while child < end {
            let node = nodes[child]
            if node.flags & JSONDocument.Flags.isRepeatedKey == 0, document.keyEquals(node, key) {
                return JSONNode(document: document, index: Int(document.replacements[Int32(truncatingIfNeeded: child)] ?? Int32(truncatingIfNeeded: child)))
            }
            child = node.next(after: child)
        }
        return nil
    }

    /// Where the value is: `applinks.details[0].components[2]["/"]`.
    ///
    /// An element's index is found by counting its earlier siblings: a key path is for a message, not for every
    /// element of a walk (a walk knows its indexes).
    package var keyPath: JSONKeyPath { keyPath(positions: nil) }

    /// The key path, with every element's index taken from `positions` when given.
    func keyPath(positions: [Int32]?) -> JSONKeyPath {
        var components: [JSONKeyPath.Component] = []
        var current = index
        while true {
            let node = document.nodes[current]
            guard node.parent >= 0 else { break }
            if node.key >= 0 {
                components.append(.key(document.key(of: node)))
            } else if let positions {
                components.append(.index(Int(positions[current])))
            } else {
                var position = 0
                var sibling = Int(node.parent) + 1
                while sibling < current {
                    position += 1
                    sibling = document.nodes[sibling].next(after: sibling)
                }
                components.append(.index(position))
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
                cursor = node.next(after: index)
                guard node.flags & JSONDocument.Flags.isRepeatedKey == 0 else { continue }
                let value = document.replacements.isEmpty ? index : Int(document.replacements[Int32(truncatingIfNeeded: index)] ?? Int32(truncatingIfNeeded: index))
                return (document.key(of: node), JSONNode(document: document, index: value))
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
            cursor = document.nodes[index].next(after: index)
            return JSONNode(document: document, index: index)
        }
    }
}
