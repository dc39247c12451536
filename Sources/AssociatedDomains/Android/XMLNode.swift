/// One element of a document read by ``XMLReader``: its name, attributes in file order, child elements, and
/// where it starts. Text content is not kept: an `AndroidManifest.xml` carries everything in attributes.
struct XMLNode: Sendable, Hashable {
    var name: String
    var attributes: [(name: String, value: String)]
    var children: [XMLNode]
    var line: Int
    var column: Int

    static func == (lhs: XMLNode, rhs: XMLNode) -> Bool {
        lhs.name == rhs.name && lhs.line == rhs.line && lhs.column == rhs.column && lhs.children == rhs.children
            && lhs.attributes.elementsEqual(rhs.attributes) { $0.name == $1.name && $0.value == $1.value }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(line)
        hasher.combine(column)
        for attribute in attributes {
            hasher.combine(attribute.name)
            hasher.combine(attribute.value)
        }
        hasher.combine(children)
    }

    /// The value of the attribute written exactly `name` (prefix included).
    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}
