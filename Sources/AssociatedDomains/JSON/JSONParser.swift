/// A strict RFC 8259 JSON parser over UTF-8 bytes with a nesting limit, so that any input yields either a value
/// or a positioned error, never a crash or a stack overflow.
struct JSONParser {
    /// Where and why parsing stopped.
    struct Failure: Error, Sendable, Hashable {
        var offset: Int
        var line: Int
        var column: Int
        var message: String
    }

    private let bytes: [UInt8]
    private var index: Int
    private let maximumDepth: Int
    /// Keys that appeared twice in one object, as (key path, key) pairs, for a warning.
    private(set) var duplicateKeys: [(path: [String], key: String)] = []
    private var path: [String] = []

    init(bytes: [UInt8], startIndex: Int = 0, maximumDepth: Int) {
        self.bytes = bytes
        self.index = startIndex
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON document that must span the whole input (surrounding whitespace allowed).
    mutating func parseDocument() throws(Failure) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count {
            throw failure("unexpected \(describeByte(at: index)) after the end of the JSON document")
        }
        return value
    }

    private func failure(_ message: String, at offset: Int? = nil) -> Failure {
        let position = min(offset ?? index, bytes.count)
        var line = 1
        var column = 1
        var i = 0
        while i < position {
            if bytes[i] == 0x0A {
                line += 1
                column = 1
            } else if bytes[i] & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return Failure(offset: position, line: line, column: column, message: message)
    }

    private func describeByte(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let b = bytes[offset]
        if b >= 0x21 && b < 0x7F {
            return "character '\(Character(Unicode.Scalar(b)))'"
        }
        let hex = String(b, radix: 16, uppercase: true)
        return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard index < bytes.count else {
            throw failure("unexpected end of input, expected a value")
        }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            guard depth < maximumDepth else {
                throw failure("nesting deeper than \(maximumDepth) levels")
            }
            return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["):
            guard depth < maximumDepth else {
                throw failure("nesting deeper than \(maximumDepth) levels")
            }
            return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw failure("unexpected \(describeByte(at: index)), expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(Failure) {
        let start = index
        for b in literal.utf8 {
            guard index < bytes.count, bytes[index] == b else {
                throw failure("invalid literal, expected \(literal)", at: start)
            }
            index += 1
        }
    }

    private mutating func parseNumber() throws(Failure) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
        guard isDigit(index) else { throw failure("invalid number, expected a digit") }
        if bytes[index] == 0x30 {
            index += 1
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
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else { throw failure("invalid number, expected an exponent digit") }
            while isDigit(index) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func parseString() throws(Failure) -> String {
        let start = index
        index += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else {
                throw failure("unterminated string", at: start)
            }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw failure("unterminated string", at: start) }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low surrogate.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                              bytes[index + 1] == UInt8(ascii: "u")
                        else { throw failure("unpaired UTF-16 surrogate in \\u escape") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw failure("unpaired UTF-16 surrogate in \\u escape")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw failure("unpaired UTF-16 surrogate in \\u escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else {
                        throw failure("invalid \\u escape")
                    }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw failure("invalid escape '\\\(describeByte(at: index - 1))'", at: index - 2)
                }
            case 0x00..<0x20:
                throw failure("unescaped control character (byte 0x\(String(b, radix: 16))) in a string")
            case 0x00..<0x80:
                out.append(b)
                index += 1
            default:
                let length = try validateUTF8Sequence()
                out.append(contentsOf: bytes[index..<(index + length)])
                index += length
            }
        }
    }

    /// Checks the multi-byte UTF-8 sequence at `index` and returns its length.
    private func validateUTF8Sequence() throws(Failure) -> Int {
        let b = bytes[index]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch b {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upperBound = 0x9F
        case 0xF0: length = 4; lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upperBound = 0x8F
        default: throw failure("invalid UTF-8 (byte 0x\(String(b, radix: 16, uppercase: true)))")
        }
        guard index + length <= bytes.count else { throw failure("truncated UTF-8 sequence") }
        for k in 1..<length {
            let c = bytes[index + k]
            let lo: UInt8 = k == 1 ? lowerBound : 0x80
            let hi: UInt8 = k == 1 ? upperBound : 0xBF
            guard c >= lo && c <= hi else {
                throw failure("invalid UTF-8 (byte 0x\(String(c, radix: 16, uppercase: true)))", at: index + k)
            }
        }
        return length
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw failure("truncated \\u escape") }
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
            default: throw failure("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            path.append("[\(elements.count)]")
            elements.append(try parseValue(depth: depth))
            path.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw failure("unterminated array, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw failure("unexpected \(describeByte(at: index)) in an array, expected ',' or ']'")
            }
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        var positions: [String: Int] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describeByte(at: index)) in an object, expected a key string")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("unexpected \(describeByte(at: index)) after an object key, expected ':'")
            }
            index += 1
            skipWhitespace()
            path.append(key)
            let value = try parseValue(depth: depth)
            path.removeLast()
            if let existing = positions[key] {
                // Foundation's parsers keep the last occurrence; so do we, and we say so.
                duplicateKeys.append((path, key))
                members[existing].value = value
            } else {
                positions[key] = members.count
                members.append((key, value))
            }
            skipWhitespace()
            guard index < bytes.count else { throw failure("unterminated object, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw failure("unexpected \(describeByte(at: index)) in an object, expected ',' or '}'")
            }
        }
    }
}
