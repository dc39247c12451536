/// Why a text is not a JSON document the caller accepts, and where: the byte offset, line and column, and the key
/// path of the value being read.
package struct JSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Whether the text breaks JSON's grammar or one of the caller's limits.
    package enum Reason: Sendable, Hashable {
        /// Not JSON (RFC 8259) at ``offset``.
        case syntax
        /// Over the caller's limit on bytes, nesting or values.
        case limit
    }

    package var reason: Reason
    /// The byte offset in the UTF-8 text.
    package var offset: Int
    /// The line, from 1.
    package var line: Int
    /// The column, from 1, in characters (Unicode scalars).
    package var column: Int
    /// The value being read: the container, then the member or element under way.
    package var keyPath: JSONKeyPath
    /// What was found, and what was expected: `unexpected character '}', expected a value`.
    package var message: String

    /// `line 2, column 16, at applinks.details[0]: unexpected character '}', expected a value` (no key path for the
    /// document itself).
    package var description: String {
        let path = keyPath.description
        return "line \(line), column \(column)\(path.isEmpty ? "" : ", at \(path)"): \(message)"
    }
}
