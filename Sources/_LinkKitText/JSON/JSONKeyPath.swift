/// Where a value sits in a JSON document, written as a reader of the file would look it up:
/// `applinks.details[0].components[2]["/"]`.
///
/// A key that is an identifier (a letter or `_`, then letters, digits or `_`) follows a dot; any other key is
/// quoted as a JSON string in brackets; an array element is its index in brackets. The document itself is the
/// empty path, written as the empty string.
package struct JSONKeyPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step down: a member of an object or an element of an array.
    package enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps from the document's value, outermost first.
    package var components: [Component]

    /// A path of `components`.
    package init(_ components: [Component] = []) {
        self.components = components
    }

    package init(arrayLiteral elements: Component...) {
        components = elements
    }

    /// This path, one member deeper.
    package func appending(_ key: String) -> JSONKeyPath {
        JSONKeyPath(components + [.key(key)])
    }

    /// This path, one element deeper.
    package func appending(_ index: Int) -> JSONKeyPath {
        JSONKeyPath(components + [.index(index)])
    }

    package var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key): Self.append(key: key, to: &text)
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// `path` written with `key` appended, for callers that keep paths as text.
    package static func appending(_ key: String, to path: String) -> String {
        var text = path
        append(key: key, to: &text)
        return text
    }

    /// `path` written with `index` appended.
    package static func appending(_ index: Int, to path: String) -> String {
        path + "[\(index)]"
    }

    private static func append(key: String, to text: inout String) {
        if isIdentifier(key) {
            if !text.isEmpty { text += "." }
            text += key
        } else {
            text += "["
            JSONWriter.appendQuoted(key, to: &text)
            text += "]"
        }
    }

    /// Whether `key` can follow a dot: a letter or `_`, then letters, digits or `_`, ASCII only.
    package static func isIdentifier(_ key: String) -> Bool {
        var first = true
        for byte in key.utf8 {
            let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            guard letter || byte == UInt8(ascii: "_") || (digit && !first) else { return false }
            first = false
        }
        return !first
    }
}
