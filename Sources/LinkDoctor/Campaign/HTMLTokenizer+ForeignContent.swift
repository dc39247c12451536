extension HTMLTokenizer {
    /// The open SVG and MathML elements, as far as the tree builder needs them to choose between HTML and foreign
    /// content: their names, namespaces, and which of them are integration points (where HTML goes on).
    ///
    /// Each element is pushed once and popped once, and the count of open elements per name answers "is an element
    /// of this name open?" without a walk: linear in the document however deep the nesting.
    struct ForeignContent {
        enum Namespace { case svg, math }

        /// What an element lets through as HTML.
        enum Integration {
            /// Nothing: its content is foreign.
            case none
            /// An HTML integration point: SVG `foreignObject`, `desc`, `title`, or MathML `annotation-xml` for HTML.
            case html
            /// A MathML text integration point (`mi`, `mo`, `mn`, `ms`, `mtext`): start tags other than `mglyph` and
            /// `malignmark` are HTML.
            case mathText
            /// MathML `annotation-xml` of another encoding: only `<svg>` starts there as it would in HTML.
            case annotationXML
        }

        /// Where a start tag was taken: as HTML (`<svg>`, `<math>`) or as a child in foreign content.
        enum Origin { case html, foreign }

        private struct Element {
            var name: [UInt8]
            var namespace: Namespace
            var integration: Integration
        }

        private var stack: [Element] = []
        private var openByName: [[UInt8]: Int] = [:]
        private var integrationPoints = 0

        var isEmpty: Bool { stack.isEmpty }
        /// Whether an integration point is open: HTML end tags then do not reach past it (it bounds their scope).
        var hasIntegrationPoint: Bool { integrationPoints > 0 }
        /// Whether a new foreign element would be an SVG one.
        var isSVG: Bool { stack.last?.namespace == .svg }

        /// Whether the tree builder takes this start tag by the HTML rules rather than those of foreign content.
        func takesAsHTML(_ tag: Tag, in bytes: [UInt8]) -> Bool {
            guard let top = stack.last else { return true }
            switch top.integration {
            case .html: return true
            case .mathText: return !tag.nameIs("mglyph", in: bytes) && !tag.nameIs("malignmark", in: bytes)
            case .annotationXML: return tag.nameIs("svg", in: bytes)
            case .none: return false
            }
        }

        /// Opens an element: `<svg>` or `<math>` taken as HTML, or a child in the namespace of the current one.
        mutating func push(_ tag: Tag, in bytes: [UInt8], from origin: Origin) {
            let name = Self.normalized(bytes[tag.name])
            let namespace: Namespace =
                switch origin {
                case .html: tag.nameIs("svg", in: bytes) ? .svg : .math
                case .foreign: stack.last?.namespace ?? .svg
                }
            var integration = Integration.none
            switch namespace {
            case .svg:
                if Self.svgIntegrationPoints.contains(where: { tag.nameIs($0, in: bytes) }) { integration = .html }
            case .math:
                if Self.mathTextIntegrationPoints.contains(where: { tag.nameIs($0, in: bytes) }) {
                    integration = .mathText
                } else if tag.nameIs("annotation-xml", in: bytes) {
                    var encoding: [UInt8] = []
                    if let value = tag.encoding { HTMLEntities.decode(bytes, value, into: &encoding) }
                    let lowered = String(decoding: encoding.map(HTMLTokenizer.lower), as: UTF8.self)
                    integration = lowered == "text/html" || lowered == "application/xhtml+xml" ? .html : .annotationXML
                }
            }
            stack.append(Element(name: name, namespace: namespace, integration: integration))
            openByName[name, default: 0] += 1
            if integration == .html || integration == .mathText { integrationPoints += 1 }
        }

        /// Pops until the current element is an integration point, or none is left: what a start tag that breaks
        /// out of foreign content does, and `</br>`, `</p>`.
        mutating func popToIntegrationPoint() {
            while let top = stack.last, top.integration == .none || top.integration == .annotationXML {
                pop()
            }
        }

        /// Pops through the innermost open element named as the end tag (compared in lower case); `false`, popping
        /// nothing, when none is open.
        mutating func popThrough(_ tag: Tag, in bytes: [UInt8]) -> Bool {
            let name = Self.normalized(bytes[tag.name])
            guard openByName[name, default: 0] > 0 else { return false }
            while let top = stack.last {
                pop()
                if top.name == name { break }
            }
            return true
        }

        private mutating func pop() {
            guard let top = stack.popLast() else { return }
            openByName[top.name, default: 1] -= 1
            if top.integration == .html || top.integration == .mathText { integrationPoints -= 1 }
        }

        private static let svgIntegrationPoints: [StaticString] = ["foreignobject", "desc", "title"]
        private static let mathTextIntegrationPoints: [StaticString] = ["mi", "mo", "mn", "ms", "mtext"]

        /// A name as the tokenizer writes it: ASCII letters in lower case, U+0000 as U+FFFD.
        static func normalized(_ name: ArraySlice<UInt8>) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(name.count)
            for byte in name {
                if byte == 0 { HTMLEntities.appendUTF8(0xFFFD, to: &out) } else { out.append(HTMLTokenizer.lower(byte)) }
            }
            return out
        }
    }
}
