internal import _LinkKitText

/// A small strict XML reader, because `FoundationXML` needs `libxml2` at run time, which a fresh machine may not
/// have: elements, attributes, comments, CDATA sections, processing instructions, the five predefined entities and
/// character references. A document type declaration (`<!DOCTYPE`) is refused, so no entity can expand.
///
/// An attribute may appear once per element, also after namespace prefixes are resolved: `a:host` and `b:host` with
/// `a` and `b` bound to one namespace are one attribute twice, which expat (and so `aapt2`) refuses. Prefixes are
/// resolved for that check only; elements and attributes keep their names as written.
///
/// Iterative (an explicit stack of open elements), with a cap on depth and on the number of elements; one pass
/// over the bytes. Errors say `line:column: expected ..., found ...`.
struct XMLReader {
    /// The deepest nesting accepted (an `AndroidManifest.xml` is about 5 deep).
    static let maximumDepth = 64
    /// The most elements accepted in one document.
    static let maximumElements = 100_000

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    /// The column of `bytes[i]` in Unicode scalars, kept as the reader advances so positions cost nothing.
    private var column = 1

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Attribute names compared while looking for duplicates (written, and namespace-resolved): what the tests hold
    /// to the number of attributes.
    private(set) var comparisons = 0

    /// Reads the document and returns its root element.
    static func parse(_ bytes: [UInt8]) throws(AssociationError) -> XMLNode {
        var comparisons = 0
        return try parse(bytes, comparisons: &comparisons)
    }

    /// ``parse(_:)``, adding the attribute names compared to `comparisons`.
    static func parse(_ bytes: [UInt8], comparisons: inout Int) throws(AssociationError) -> XMLNode {
        var reader = XMLReader(bytes)
        defer { comparisons += reader.comparisons }
        return try reader.document()
    }

    private func error(_ expected: String, at offset: Int? = nil) -> AssociationError {
        let at = offset ?? i
        var l = 1, start = 0
        var k = 0
        while k < at && k < bytes.count {
            if bytes[k] == 0x0A { l += 1; start = k + 1 }
            k += 1
        }
        let found: String
        if at >= bytes.count {
            found = "the end of the file"
        } else {
            let end = min(bytes.count, at + 12)
            let snippet = String(decoding: bytes[at..<end], as: UTF8.self)
                .map { $0.isNewline ? " " : String($0) }.joined()
            found = "\"\(snippet)\""
        }
        let column = String(decoding: bytes[start..<min(at, bytes.count)], as: UTF8.self).unicodeScalars.count + 1
        return AssociationError(code: .unreadableManifest, message: "\(l):\(column): expected \(expected), found \(found)")
    }

    private func position() -> (line: Int, column: Int) {
        (line, column)
    }

    private mutating func advance() {
        if bytes[i] == 0x0A {
            line += 1
            column = 1
        } else if bytes[i] & 0xC0 != 0x80 {
            column += 1
        }
        i += 1
    }

    private func peek(_ s: StaticString) -> Bool {
        s.withUTF8Buffer { u in i + u.count <= bytes.count && bytes[i..<(i + u.count)].elementsEqual(u) }
    }

    private mutating func skip(_ count: Int) {
        for _ in 0..<count { advance() }
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private mutating func skipSpace() {
        while i < bytes.count && Self.isSpace(bytes[i]) { advance() }
    }

    private static func isNameStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x3A || b >= 0x80
    }

    private static func isName(_ b: UInt8) -> Bool {
        isNameStart(b) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E
    }

    private mutating func name() throws(AssociationError) -> String {
        guard i < bytes.count, Self.isNameStart(bytes[i]) else { throw error("a name") }
        let start = i
        while i < bytes.count && Self.isName(bytes[i]) { advance() }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private mutating func document() throws(AssociationError) -> XMLNode {
        if let bad = UTF8Validation.firstInvalidByte(in: bytes) { throw error("UTF-8 text", at: bad) }
        if peek("\u{FEFF}") { skip(3) }
        var root: XMLNode?
        var stack: [XMLNode] = []
        var elements = 0
        var namespaces = Namespaces()
        while true {
            if stack.isEmpty { skipSpace() }
            if i >= bytes.count {
                if !stack.isEmpty { throw error("</\(stack[stack.count - 1].name)>") }
                guard let root else { throw error("a root element") }
                return root
            }
            if peek("<!--") {
                try comment()
            } else if peek("<?") {
                try processingInstruction()
            } else if peek("<!DOCTYPE") {
                throw error("no document type declaration (DTDs are not supported)")
            } else if peek("<![CDATA[") {
                guard !stack.isEmpty else { throw error("a root element") }
                let start = i
                skip(9)
                while i < bytes.count && !peek("]]>") { advance() }
                guard i < bytes.count else { throw error("\"]]>\" to end the CDATA section", at: start) }
                skip(3)
            } else if peek("</") {
                let at = i
                skip(2)
                let closing = try name()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw error("\">\"") }
                advance()
                guard let open = stack.popLast() else { throw error("no end tag outside the root element", at: at) }
                guard open.name == closing else { throw error("</\(open.name)>", at: at) }
                namespaces.close()
                if stack.isEmpty {
                    root = open
                } else {
                    stack[stack.count - 1].children.append(open)
                }
            } else if bytes[i] == UInt8(ascii: "<") {
                guard root == nil else { throw error("nothing after the root element") }
                let (line, column) = position()
                advance()
                let elementName = try name()
                var node = XMLNode(name: elementName, attributes: [], children: [], line: line, column: column)
                var selfClosing = false
                // The names seen on this element: a duplicate found by lookup, not by a scan of the ones before it.
                var attributeNames: Set<String> = []
                var attributeStarts: [Int] = []
                while true {
                    let hadSpace = i < bytes.count && Self.isSpace(bytes[i])
                    skipSpace()
                    guard i < bytes.count else { throw error("\">\" to end <\(elementName)>") }
                    if bytes[i] == UInt8(ascii: ">") { advance(); break }
                    if peek("/>") { skip(2); selfClosing = true; break }
                    guard hadSpace else { throw error("a space before the attribute") }
                    let attributeStart = i
                    let attributeName = try name()
                    // aapt2 reads the manifest with expat, which refuses a duplicate attribute: the build fails.
                    comparisons += 1
                    guard attributeNames.insert(attributeName).inserted else {
                        throw error("each attribute once, not \(attributeName) twice", at: attributeStart)
                    }
                    attributeStarts.append(attributeStart)
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { throw error("\"=\" after \(attributeName)") }
                    advance()
                    skipSpace()
                    node.attributes.append((attributeName, try attributeValue()))
                }
                // With namespaces, as aapt2 has expat read: one attribute written with two prefixes of one namespace
                // is a duplicate too.
                namespaces.open(node.attributes)
                var expanded: [ExpandedName: String] = [:]
                for (k, attribute) in node.attributes.enumerated() {
                    guard let name = namespaces.expanded(attribute.name) else { continue }
                    comparisons += 1
                    if let earlier = expanded.updateValue(attribute.name, forKey: name) {
                        throw error("each attribute once, not \(name.local) in namespace \(name.namespace) twice (\(earlier) and \(attribute.name))", at: attributeStarts[k])
                    }
                }
                elements += 1
                guard elements <= Self.maximumElements else { throw error("at most \(Self.maximumElements) elements") }
                if selfClosing {
                    namespaces.close()
                    if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
                } else {
                    guard stack.count < Self.maximumDepth else { throw error("at most \(Self.maximumDepth) nested elements") }
                    stack.append(node)
                }
            } else {
                guard !stack.isEmpty else { throw error(root == nil ? "a root element" : "nothing after the root element") }
                try text()
            }
        }
    }

    private mutating func comment() throws(AssociationError) {
        let start = i
        skip(4)
        while i < bytes.count {
            if peek("--") {
                guard peek("-->") else { throw error("\"-->\" (a comment may not contain \"--\")") }
                skip(3)
                return
            }
            advance()
        }
        throw error("\"-->\" to end the comment", at: start)
    }

    private mutating func processingInstruction() throws(AssociationError) {
        let start = i
        skip(2)
        while i < bytes.count && !peek("?>") { advance() }
        guard i < bytes.count else { throw error("\"?>\" to end the processing instruction", at: start) }
        skip(2)
    }

    private mutating func text() throws(AssociationError) {
        while i < bytes.count && bytes[i] != UInt8(ascii: "<") {
            if bytes[i] == UInt8(ascii: "&") {
                _ = try reference()
            } else {
                advance()
            }
        }
    }

    private mutating func attributeValue() throws(AssociationError) -> String {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
            throw error("a quoted attribute value")
        }
        let quote = bytes[i]
        let start = i
        advance()
        var value: [UInt8] = []
        while i < bytes.count && bytes[i] != quote {
            switch bytes[i] {
            case UInt8(ascii: "<"): throw error("no \"<\" in an attribute value")
            case UInt8(ascii: "&"): value += Array(try reference().utf8)
            case 0x09, 0x0A, 0x0D:
                // Attribute-value normalisation: each white-space character becomes a space.
                value.append(0x20)
                advance()
            default:
                value.append(bytes[i])
                advance()
            }
        }
        guard i < bytes.count else { throw error("the closing quote of the attribute value", at: start) }
        advance()
        return String(decoding: value, as: UTF8.self)
    }

    /// `&name;` or `&#N;` / `&#xH;`, returning the text it stands for.
    private mutating func reference() throws(AssociationError) -> String {
        let start = i
        advance()
        var body: [UInt8] = []
        while i < bytes.count && bytes[i] != UInt8(ascii: ";") && body.count < 12 {
            body.append(bytes[i])
            advance()
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: ";") else {
            throw error("an entity reference such as &amp; or &#38;", at: start)
        }
        advance()
        let text = String(decoding: body, as: UTF8.self)
        switch text {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            var digits = Substring(text)
            var radix = 10
            guard digits.first == "#" else { throw error("one of &lt; &gt; &amp; &quot; &apos; (no DTD entities)", at: start) }
            digits = digits.dropFirst()
            if digits.first == "x" { radix = 16; digits = digits.dropFirst() }
            guard !digits.isEmpty, let value = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(value), value != 0 else {
                throw error("a character reference to a Unicode scalar", at: start)
            }
            return String(Character(scalar))
        }
    }

    /// An attribute name with its prefix resolved.
    private struct ExpandedName: Hashable {
        var namespace: String
        var local: String
    }

    /// The namespace prefixes in scope: each prefix's bindings innermost last, and the prefixes each open element
    /// declared, so closing it takes them back in time proportional to them.
    private struct Namespaces {
        private var bindings: [Substring: [String]] = ["xml": ["http://www.w3.org/XML/1998/namespace"]]
        private var declared: [[Substring]] = []

        /// Enters an element: its `xmlns:` declarations apply to all its attributes, wherever they are written.
        mutating func open(_ attributes: [(name: String, value: String)]) {
            var prefixes: [Substring] = []
            for attribute in attributes where attribute.name.hasPrefix("xmlns:") {
                let prefix = attribute.name.dropFirst(6)
                bindings[prefix, default: []].append(attribute.value)
                prefixes.append(prefix)
            }
            declared.append(prefixes)
        }

        /// Leaves the innermost element.
        mutating func close() {
            for prefix in declared.popLast() ?? [] { bindings[prefix]?.removeLast() }
        }

        /// The namespace and local name of a prefixed attribute whose prefix is bound; `nil` for a declaration, an
        /// attribute without a prefix (in no namespace, so its written name is the whole name) or with an unbound one.
        func expanded(_ name: String) -> ExpandedName? {
            guard let colon = name.firstIndex(of: ":") else { return nil }
            let prefix = name[..<colon]
            guard prefix != "xmlns", let namespace = bindings[prefix]?.last else { return nil }
            return ExpandedName(namespace: namespace, local: String(name[name.index(after: colon)...]))
        }
    }
}
