extension JSONDocument {
    /// Why a text is not JSON, and where.
    struct Failure: Error, Hashable {
        /// The byte offset in the UTF-8 text.
        var offset: Int
        var line: Int
        var column: Int
        var message: String
    }

    /// Checks that `bytes` hold one JSON value (RFC 8259, plus what `JSONSerialization` also accepted: one trailing
    /// comma before a `]` or `}`, and any value at the top), at most ``maximumDepth`` containers deep, with valid
    /// UTF-8, escapes and surrogate pairs. A number is checked for its grammar only: its size matters only where it
    /// is read (``integer(at:)``), so `1e400` is a number, not an error of syntax.
    ///
    /// One pass, one loop: the stack of open containers is a byte array, so the check needs the text and
    /// ``maximumDepth`` bytes, whatever the input.
    init(validating bytes: UnsafeBufferPointer<UInt8>) throws(Failure) {
        var checker = Checker(bytes: bytes)
        root = try checker.run()
        self.bytes = bytes
    }

    private struct Checker {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// The open containers, innermost last: `{` or `[`.
        var open: [UInt8] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func run() throws(Failure) -> Int {
            skipWhitespace()
            let root = index
            try value()
            while true {
                // Here a value was read, or a container opened (``justOpened``): a member, an element or the
                // container's close follows.
                if justOpened {
                    justOpened = false
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == closing(open[open.count - 1]) {
                        index += 1
                        open.removeLast()
                    } else {
                        if open.last == UInt8(ascii: "{") { try key() }
                        try value()
                        continue
                    }
                }
                skipWhitespace()
                guard let container = open.last else {
                    guard index == bytes.count else {
                        throw failure("unexpected \(describe(index)) after the end of the JSON document")
                    }
                    return root
                }
                let close = closing(container)
                let noun = container == UInt8(ascii: "{") ? "object" : "array"
                guard index < bytes.count else {
                    throw failure("unterminated \(noun), expected ',' or '\(Character(Unicode.Scalar(close)))'")
                }
                if bytes[index] == close {
                    index += 1
                    open.removeLast()
                } else if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    // One trailing comma is allowed: JSONSerialization read `[1,]` and `{"a": 1,}`.
                    if index < bytes.count, bytes[index] == close {
                        index += 1
                        open.removeLast()
                    } else {
                        if container == UInt8(ascii: "{") { try key() }
                        try value()
                    }
                } else {
                    throw failure("unexpected \(describe(index)) in an \(noun), expected ',' or '\(Character(Unicode.Scalar(close)))'")
                }
            }
        }

        /// Set by ``value()`` when it opened a container rather than read a scalar.
        var justOpened = false

        func closing(_ open: UInt8) -> UInt8 { open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]") }

        /// A key, its `:` and the whitespace after it.
        mutating func key() throws(Failure) {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describe(index)) in an object, expected a key string")
            }
            try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("unexpected \(describe(index)) after an object key, expected ':'")
            }
            index += 1
        }

        /// One scalar value, or the opening bracket of a container (pushed; ``justOpened`` set).
        mutating func value() throws(Failure) {
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of input, expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open.count < JSONDocument.maximumDepth else {
                    throw failure("nesting deeper than \(JSONDocument.maximumDepth) arrays or objects")
                }
                open.append(bytes[index])
                index += 1
                justOpened = true
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw failure("unexpected \(describe(index)), expected a value")
            }
        }

        mutating func skipWhitespace() {
            while index < bytes.count, JSONDocument.isWhitespace(bytes[index]) { index += 1 }
        }

        mutating func literal(_ word: StaticString) throws(Failure) {
            let start = index
            for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
                guard index < bytes.count, bytes[index] == expected else {
                    throw failure("invalid literal, expected \(word)", at: start)
                }
                index += 1
            }
        }

        mutating func number() throws(Failure) {
            func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw failure("invalid number, expected a digit") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if isDigit(index) { throw failure("invalid number, a leading zero", at: index - 1) }
            } else {
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard isDigit(index) else { throw failure("invalid number, expected a digit after '.'") }
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard isDigit(index) else { throw failure("invalid number, expected an exponent digit") }
                while isDigit(index) { index += 1 }
            }
        }

        mutating func string() throws(Failure) {
            let start = index
            index += 1
            while true {
                guard index < bytes.count else { throw failure("unterminated string", at: start) }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"):
                    try escape()
                case 0x00..<0x20:
                    throw failure("unescaped control character (byte 0x\(hex(byte))) in a string")
                case 0x20..<0x80:
                    index += 1
                default:
                    try utf8Sequence()
                }
            }
        }

        /// The escape at `index` (its backslash); a `\u` high surrogate must be followed by an escaped low one.
        mutating func escape() throws(Failure) {
            let start = index
            guard index + 1 < bytes.count else { throw failure("unterminated string", at: start) }
            switch bytes[index + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 2
            case UInt8(ascii: "u"):
                index += 2
                let scalar = try hex4()
                if (0xDC00..<0xE000).contains(scalar) {
                    throw failure("a lone UTF-16 low surrogate in a \\u escape", at: start)
                }
                if (0xD800..<0xDC00).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw failure("a lone UTF-16 high surrogate in a \\u escape", at: start)
                    }
                    index += 2
                    guard (0xDC00..<0xE000).contains(try hex4()) else {
                        throw failure("a lone UTF-16 high surrogate in a \\u escape", at: start)
                    }
                }
            default:
                throw failure("invalid escape sequence", at: start)
            }
        }

        mutating func hex4() throws(Failure) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count else { throw failure("truncated \\u escape") }
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure("invalid hexadecimal digit in a \\u escape")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// The multi-byte UTF-8 sequence at `index`: no overlong forms, surrogates or scalars past U+10FFFF.
        mutating func utf8Sequence() throws(Failure) {
            let lead = bytes[index]
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: throw failure("invalid UTF-8 (byte 0x\(hex(lead)))")
            }
            guard index + length <= bytes.count else { throw failure("truncated UTF-8 sequence") }
            for k in 1..<length {
                let byte = bytes[index + k]
                guard byte >= (k == 1 ? low : 0x80), byte <= (k == 1 ? high : 0xBF) else {
                    throw failure("invalid UTF-8 (byte 0x\(hex(byte)))", at: index + k)
                }
            }
            index += length
        }

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

        /// A failure at `offset` (default: here), with its line and column (columns count characters).
        func failure(_ message: String, at offset: Int? = nil) -> Failure {
            let position = min(offset ?? index, bytes.count)
            var line = 1
            var column = 1
            for byte in bytes[0..<position] {
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return Failure(offset: position, line: line, column: column, message: message)
        }
    }
}
