/// The package's one JSON reader: strict RFC 8259 over UTF-8 bytes, within the caller's limits, into a
/// ``JSONDocument`` that keeps members in document order.
///
/// One loop over the bytes with an explicit stack of open containers, so nesting costs memory in proportion to
/// the input and never the call stack. Each byte is looked at once: strings are checked for UTF-8, escapes and
/// control characters while they are scanned, and built only when a caller asks for one. Any input gives a
/// document or a ``JSONReadError`` that says where (line, column, key path), what was found and what was expected.
///
/// What RFC 8259 refuses is refused (a trailing comma unless the caller allows one, comments, leading zeros,
/// single quotes, `NaN`, a lone `\u` surrogate, ill-formed UTF-8); a byte-order mark is the caller's to handle.
package enum JSONReader {
    /// The most a document may take: bytes of text, levels of nesting and values (members, elements and the
    /// document's value each count one).
    package struct Limits: Sendable, Hashable {
        package var bytes: Int
        package var depth: Int
        package var values: Int

        package init(bytes: Int, depth: Int, values: Int) {
            self.bytes = bytes
            self.depth = depth
            self.values = values
        }
    }

    /// Reads the JSON document that spans all of `bytes` (white space around it allowed).
    ///
    /// - Parameters:
    ///   - bytes: UTF-8 text.
    ///   - limits: The caller's budget; exceeding it is a ``JSONReadError/Reason/limit`` error.
    ///   - allowsTrailingCommas: Whether one comma may end an array or object (`[1,]`), as `JSONSerialization`
    ///     accepted.
    /// - Returns: The document.
    /// - Throws: ``JSONReadError`` when the text is not one JSON value or exceeds `limits`.
    package static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: Limits, allowsTrailingCommas: Bool = false
    ) throws(JSONReadError) -> JSONDocument {
        try read(text: Array(bytes), limits: limits, allowsTrailingCommas: allowsTrailingCommas)
    }

    /// Reads the JSON document that spans all of `bytes`; see ``read(_:limits:allowsTrailingCommas:)-(UnsafeBufferPointer<UInt8>,_,_)``.
    package static func read(
        _ bytes: some Collection<UInt8>, limits: Limits, allowsTrailingCommas: Bool = false
    ) throws(JSONReadError) -> JSONDocument {
        try read(text: Array(bytes), limits: limits, allowsTrailingCommas: allowsTrailingCommas)
    }

    /// Reads `text`, which the document keeps: its strings and numbers are read from it when asked for.
    private static func read(text: [UInt8], limits: Limits, allowsTrailingCommas: Bool) throws(JSONReadError) -> JSONDocument {
        let result = text.withUnsafeBufferPointer { bytes in
            Result { () throws(JSONReadError) -> JSONDocument in
                var parser = Parser(text: text, bytes: bytes, limits: limits, allowsTrailingCommas: allowsTrailingCommas)
                try parser.run()
                return JSONDocument(
                    text: text, nodes: parser.nodes, replacements: parser.replacements, repeatedMembers: parser.repeatedMembers)
            }
        }
        return try result.get()
    }

    private struct Frame {
        /// The container's node.
        var node: Int32
        var isObject: Bool
        /// Members or elements so far, repeated keys included.
        var count: Int32 = 0
        /// Members so far without repetitions.
        var unique: Int32 = 0
        /// Key to first member, once an object has more members than a scan should compare.
        var keys: [String: Int32]?
    }

    private struct Parser {
        /// The text (for the key paths of errors); ``bytes`` is its storage.
        let text: [UInt8]
        let bytes: UnsafeBufferPointer<UInt8>
        let limits: Limits
        let allowsTrailingCommas: Bool
        var index = 0
        var nodes: [JSONDocument.Node] = []
        var replacements: [Int32: Int32] = [:]
        /// Members whose key repeats an earlier one of their object, as node indexes (their key paths are written
        /// only when asked for, so repetitions cost 4 bytes each however deep they are).
        var repeatedMembers: [Int32] = []
        var stack: [Frame] = []
        /// The offset of the key read for the member whose value comes next, or -1.
        var pendingKey: Int32 = -1
        /// ``JSONDocument/Flags/keyHasEscapes`` when the pending key has an escape.
        var pendingKeyFlags: UInt8 = 0
        /// Whether the key just read repeats an earlier one (then its first member's index).
        var repeatedMember: Int32 = -1
        /// Set while an element's value is expected, for the key path of an error there.
        var expectingElement = false

        /// Objects with more members than this find repeated keys with a dictionary rather than a scan.
        static let scanLimit: Int32 = 8

        init(text: [UInt8], bytes: UnsafeBufferPointer<UInt8>, limits: Limits, allowsTrailingCommas: Bool) {
            self.text = text
            self.bytes = bytes
            self.limits = limits
            self.allowsTrailingCommas = allowsTrailingCommas
        }

        mutating func run() throws(JSONReadError) {
            guard bytes.count <= limits.bytes else {
                throw failure(.limit, "the text is \(bytes.count) bytes, over the limit of \(limits.bytes) bytes", at: 0)
            }
            nodes.reserveCapacity(min(bytes.count / 8 + 1, limits.values))
            skipWhitespace()
            try value()
            while !stack.isEmpty {
                // Fields, not the frame: a copy would share an object's key dictionary and make the next insert copy it.
                let isObject = stack[stack.count - 1].isObject
                let count = stack[stack.count - 1].count
                skipWhitespace()
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if count == 0 {
                    // Just opened: the close, or the first member or element.
                    if index < bytes.count, bytes[index] == close {
                        index += 1
                        closeContainer()
                        continue
                    }
                } else if index == bytes.count {
                    throw failure(.syntax, "unterminated \(isObject ? "object" : "array"), expected ',' or '\(Character(Unicode.Scalar(close)))'")
                } else if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    if allowsTrailingCommas {
                        skipWhitespace()
                        if index < bytes.count, bytes[index] == close {
                            index += 1
                            closeContainer()
                            continue
                        }
                    }
                } else if bytes[index] == close {
                    index += 1
                    closeContainer()
                    continue
                } else {
                    let noun = isObject ? "an object" : "an array"
                    throw failure(.syntax, "unexpected \(describe(index)) in \(noun), expected ',' or '\(Character(Unicode.Scalar(close)))'")
                }
                if isObject {
                    try key()
                } else {
                    expectingElement = true
                }
                try value()
            }
            skipWhitespace()
            guard index == bytes.count else {
                throw failure(.syntax, "unexpected \(describe(index)) after the end of the JSON document")
            }
        }

        @inline(__always)
        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        /// Appends a node for the value just read (or the container just opened), as the next child of the
        /// innermost container.
        @inline(__always)
        mutating func appendNode(_ kind: JSONDocument.Kind, flags: UInt8 = 0, payload: Int32, end: Int32) -> Int {
            let nodeIndex = nodes.count
            var parent: Int32 = -1
            if !stack.isEmpty {
                let top = stack.count - 1
                parent = stack[top].node
                stack[top].count += 1
            }
            var flags = flags | pendingKeyFlags
            if repeatedMember >= 0 {
                flags |= JSONDocument.Flags.isRepeatedKey
                replacements[repeatedMember] = Int32(truncatingIfNeeded: nodeIndex)
                repeatedMember = -1
            }
            nodes.append(JSONDocument.Node(kind: kind, flags: flags, parent: parent, key: pendingKey, payload: payload, end: end))
            pendingKey = -1
            pendingKeyFlags = 0
            expectingElement = false
            return nodeIndex
        }

        /// One value: a scalar whole, or a container's opening bracket (pushed on the stack).
        mutating func value() throws(JSONReadError) {
            skipWhitespace()
            guard index < bytes.count else { throw failure(.syntax, "unexpected end of input, expected a value") }
            guard nodes.count < limits.values else { throw failure(.limit, "more than \(limits.values) values") }
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard stack.count < limits.depth else {
                    throw failure(.limit, "nesting deeper than \(limits.depth) arrays or objects")
                }
                let isObject = bytes[index] == UInt8(ascii: "{")
                let node = appendNode(isObject ? .object : .array, payload: 0, end: 0)
                stack.append(Frame(node: Int32(truncatingIfNeeded: node), isObject: isObject))
                index += 1
            case UInt8(ascii: "\""):
                let start = index
                let escaped = try string()
                _ = appendNode(
                    .string, flags: escaped ? JSONDocument.Flags.valueHasEscapes : 0,
                    payload: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: index))
            case UInt8(ascii: "t"):
                try literal("true")
                _ = appendNode(.boolean, payload: 1, end: 0)
            case UInt8(ascii: "f"):
                try literal("false")
                _ = appendNode(.boolean, payload: 0, end: 0)
            case UInt8(ascii: "n"):
                try literal("null")
                _ = appendNode(.null, payload: 0, end: 0)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                try number()
                _ = appendNode(.number, payload: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: index))
            default:
                throw failure(.syntax, "unexpected \(describe(index)), expected a value")
            }
        }

        mutating func closeContainer() {
            let frame = stack.removeLast()
            let node = Int(frame.node)
            nodes[node].end = Int32(truncatingIfNeeded: nodes.count)
            nodes[node].payload = frame.isObject ? frame.unique : frame.count
        }

        /// A member's key and its colon; notes whether the key repeats an earlier one of the same object.
        mutating func key() throws(JSONReadError) {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure(.syntax, "unexpected \(describe(index)) in an object, expected a key string")
            }
            let keyStart = Int32(truncatingIfNeeded: index)
            let escaped = try string()
            let keyFlags = escaped ? JSONDocument.Flags.keyHasEscapes : 0
            let top = stack.count - 1
            let member = Int32(truncatingIfNeeded: nodes.count)
            var first: Int32 = -1
            if stack[top].keys != nil {
                let key = keyString(keyStart, keyFlags)
                first = stack[top].keys![key, default: -1]
                if first < 0 { stack[top].keys![key] = member }
            } else {
                var child = Int(stack[top].node) + 1
                while child < nodes.count {
                    let node = nodes[child]
                    if node.flags & JSONDocument.Flags.isRepeatedKey == 0, sameKey(node.key, node.flags, keyStart, keyFlags) {
                        first = Int32(truncatingIfNeeded: child)
                        break
                    }
                    child = node.next(after: child)
                }
                if first < 0, stack[top].unique >= Self.scanLimit {
                    var keys: [String: Int32] = [keyString(keyStart, keyFlags): member]
                    child = Int(stack[top].node) + 1
                    while child < nodes.count {
                        let node = nodes[child]
                        if node.flags & JSONDocument.Flags.isRepeatedKey == 0 {
                            keys[keyString(node.key, node.flags)] = Int32(truncatingIfNeeded: child)
                        }
                        child = node.next(after: child)
                    }
                    stack[top].keys = keys
                }
            }
            pendingKey = keyStart
            pendingKeyFlags = keyFlags
            if first >= 0 {
                repeatedMember = first
                // The member's value is the next node.
                repeatedMembers.append(member)
            } else {
                stack[top].unique += 1
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure(.syntax, "unexpected \(describe(index)) after an object key, expected ':'")
            }
            index += 1
        }

        /// The key whose literal starts at `start`, decoded.
        func keyString(_ start: Int32, _ flags: UInt8) -> String {
            var end = Int(start) + 1
            while bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
            let content = UnsafeBufferPointer(rebasing: bytes[Int(start) + 1..<end])
            return flags & JSONDocument.Flags.keyHasEscapes != 0
                ? JSONDocument.unescaped(content) : String(decoding: content, as: UTF8.self)
        }

        /// Whether two checked key literals denote the same key: their bytes, unless one has an escape.
        func sameKey(_ a: Int32, _ aFlags: UInt8, _ b: Int32, _ bFlags: UInt8) -> Bool {
            guard (aFlags | bFlags) & JSONDocument.Flags.keyHasEscapes == 0 else {
                return keyString(a, aFlags) == keyString(b, bFlags)
            }
            var i = Int(a) + 1
            var j = Int(b) + 1
            while bytes[i] == bytes[j] {
                if bytes[i] == UInt8(ascii: "\"") { return true }
                i += 1
                j += 1
            }
            return false
        }

        mutating func literal(_ word: StaticString) throws(JSONReadError) {
            let start = index
            for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
                guard index < bytes.count, bytes[index] == expected else {
                    throw failure(.syntax, "invalid literal, expected \(word)", at: start)
                }
                index += 1
            }
        }

        @inline(__always)
        func isDigit(_ offset: Int) -> Bool {
            offset < bytes.count && bytes[offset] &- UInt8(ascii: "0") < 10
        }

        mutating func number() throws(JSONReadError) {
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw failure(.syntax, "invalid number, expected a digit") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if isDigit(index) { throw failure(.syntax, "invalid number, a leading zero", at: index - 1) }
            } else {
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard isDigit(index) else { throw failure(.syntax, "invalid number, expected a digit after '.'") }
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard isDigit(index) else { throw failure(.syntax, "invalid number, expected an exponent digit") }
                while isDigit(index) { index += 1 }
            }
        }

        /// Checks the string literal whose opening quote is at `index`; `index` ends past its closing quote.
        /// - Returns: Whether it holds an escape.
        mutating func string() throws(JSONReadError) -> Bool {
            let start = index
            index += 1
            var escaped = false
            while true {
                guard index < bytes.count else { throw failure(.syntax, "unterminated string", at: start) }
                let byte = bytes[index]
                if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return escaped
                }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    try escape()
                    continue
                }
                try multiByteOrControl(byte)
            }
        }

        /// Steps over the multi-byte UTF-8 sequence at `index`, or throws for it or for a control character.
        @inline(__always)
        mutating func multiByteOrControl(_ byte: UInt8) throws(JSONReadError) {
            if byte < 0x20 {
                throw failure(.syntax, "unescaped control character (byte 0x\(hex(byte))) in a string")
            }
            let length = UTF8Validation.multiByteSequence(in: bytes, at: index)
            guard length > 0 else {
                let bad = -length - 1
                if bad == bytes.count { throw failure(.syntax, "truncated UTF-8 sequence") }
                throw failure(.syntax, "invalid UTF-8 (byte 0x\(hex(bytes[bad])))", at: bad)
            }
            index += length
        }

        /// Checks the escape whose backslash is at `index` and steps over it.
        mutating func escape() throws(JSONReadError) {
            let start = index
            guard index + 1 < bytes.count else { throw failure(.syntax, "unterminated string", at: start) }
            switch bytes[index + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 2
            case UInt8(ascii: "u"):
                index += 2
                let scalar = try hex4()
                if (0xDC00..<0xE000).contains(scalar) {
                    throw failure(.syntax, "a lone UTF-16 low surrogate in a \\u escape", at: start)
                }
                if (0xD800..<0xDC00).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw failure(.syntax, "a lone UTF-16 high surrogate in a \\u escape", at: start)
                    }
                    index += 2
                    guard (0xDC00..<0xE000).contains(try hex4()) else {
                        throw failure(.syntax, "a lone UTF-16 high surrogate in a \\u escape", at: start)
                    }
                }
            default:
                throw failure(.syntax, "invalid escape sequence", at: start)
            }
        }

        mutating func hex4() throws(JSONReadError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count else { throw failure(.syntax, "truncated \\u escape") }
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure(.syntax, "invalid hexadecimal digit in a \\u escape")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        // MARK: - Where

        func hex(_ byte: UInt8) -> String {
            let text = String(byte, radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }

        func describe(_ offset: Int) -> String {
            guard offset < bytes.count else { return "end of input" }
            let byte = bytes[offset]
            if byte >= 0x21, byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
            return "byte 0x\(hex(byte))"
        }

        /// The key path of the innermost open container.
        func containerPath() -> JSONKeyPath {
            guard !stack.isEmpty else { return JSONKeyPath() }
            let container = Int(stack[stack.count - 1].node)
            let document = JSONDocument(text: text, nodes: nodes, replacements: replacements, repeatedMembers: [])
            return JSONNode(document: document, index: container).keyPath
        }

        /// A failure at `offset` (default: here), with its line, column and key path.
        func failure(_ reason: JSONReadError.Reason, _ message: String, at offset: Int? = nil) -> JSONReadError {
            let position = min(offset ?? index, bytes.count)
            var line = 1
            var column = 1
            for byte in UnsafeBufferPointer(rebasing: bytes[0..<position]) {
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            var path = containerPath()
            if pendingKey >= 0 {
                path = path.appending(keyString(pendingKey, pendingKeyFlags))
            } else if expectingElement, !stack.isEmpty {
                path = path.appending(Int(stack[stack.count - 1].count))
            }
            return JSONReadError(reason: reason, offset: position, line: line, column: column, keyPath: path, message: message)
        }
    }
}
