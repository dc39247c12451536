/// A JSON text as the reader leaves it: every value in one flat array, in document order, so that reading, walking
/// and freeing a document are loops whatever its depth, and a value knows its parent (hence its key path).
///
/// Objects keep their members in document order. A key repeated in one object keeps its last value at the place
/// of its first occurrence (as `JSONSerialization` and Android's `JSONObject` read it); the repetition is listed in
/// ``duplicateKeys`` so that a caller can warn about it.
package final class JSONDocument: Sendable {
    /// What a value is.
    package enum Kind: UInt8, Sendable {
        case null, boolean, number, string, array, object
    }

    /// One value. Containers are followed by their children, each child's subtree before the next child.
    struct Node: Sendable {
        var kind: Kind
        /// Set on a member whose key an earlier member of the same object already had: walks skip it.
        var isRepeatedKey = false
        /// The parent container's index, or -1 for the document's value.
        var parent: Int32
        /// The member's key (an index into ``strings``), or -1 for an array element or the document's value.
        var key: Int32
        /// The element's index in its array, or the member's index in its object's members as written.
        var position: Int32
        /// A string's or number's text (an index into ``strings``), a boolean's value (0 or 1), or a container's
        /// count of children (members without repetitions).
        var payload: Int32
        /// The index just past this value's subtree.
        var end: Int32
        /// For a member whose key is repeated later: the index of the member whose value replaces its value.
        var replacement: Int32 = -1
    }

    let nodes: [Node]
    let strings: [String]
    /// The key paths of the members whose key repeats an earlier key of the same object, in document order.
    package let duplicateKeys: [JSONKeyPath]

    init(nodes: [Node], strings: [String], duplicateKeys: [JSONKeyPath]) {
        self.nodes = nodes
        self.strings = strings
        self.duplicateKeys = duplicateKeys
    }

    /// The document's value.
    package var root: JSONNode { JSONNode(document: self, index: 0) }

    /// How many values the document holds, repeated members included.
    package var valueCount: Int { nodes.count }
}
