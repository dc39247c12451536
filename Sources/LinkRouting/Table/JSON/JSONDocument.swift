/// A JSON text read in place: checked once by ``init(validating:)``, then walked by byte offsets, so reading a route
/// table costs its bytes and the table it builds, not an object graph (Foundation's was about 3 KB a route).
///
/// Every walk is a loop: values are skipped by counting brackets, never by recursion, and ``maximumDepth`` bounds the
/// nesting the check accepts. Offsets point at the first byte of a value; the walk trusts the check, so a document
/// must not be built from bytes it has not validated.
struct JSONDocument {
    /// The nesting `JSONSerialization` accepted: 512 arrays or objects deep; one more is `invalidJSON`.
    static let maximumDepth = 512

    /// What a value is, from its first byte.
    enum Kind {
        case object, array, string, number, boolean, null
    }

    /// The UTF-8 text; valid JSON from ``root`` to its end.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Where the document's value starts (after a byte-order mark and whitespace).
    let root: Int

    func kind(at offset: Int) -> Kind {
        switch bytes[offset] {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .boolean
        case UInt8(ascii: "n"): .null
        default: .number
        }
    }

    // MARK: - Skipping

    /// The offset just past the value at `offset`: containers by counting brackets outside strings.
    func end(ofValueAt offset: Int) -> Int {
        switch bytes[offset] {
        case UInt8(ascii: "\""): return end(ofStringAt: offset)
        case UInt8(ascii: "t"), UInt8(ascii: "n"): return offset + 4
        case UInt8(ascii: "f"): return offset + 5
        case UInt8(ascii: "{"), UInt8(ascii: "["): break
        default:
            var index = offset + 1
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            return index
        }
        var depth = 0
        var index = offset
        repeat {
            switch bytes[index] {
            case UInt8(ascii: "\""): index = end(ofStringAt: index); continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
            index += 1
        } while depth > 0
        return index
    }

    /// The offset just past the closing quote of the string whose opening quote is at `offset`.
    func end(ofStringAt offset: Int) -> Int {
        var index = offset + 1
        while bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return index + 1
    }

    func skipWhitespace(from offset: Int) -> Int {
        var index = offset
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
             UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    // MARK: - Containers

    /// The members of an object in document order: a key repeated is seen twice (readers keep the last, as
    /// `JSONSerialization` did).
    struct Members: IteratorProtocol {
        let document: JSONDocument
        var index: Int

        /// The next key and the offset of its value.
        mutating func next() -> (key: String, value: Int)? {
            index = document.skipWhitespace(from: index)
            guard document.bytes[index] == UInt8(ascii: "\"") else { return nil }  // `}`
            let key = document.string(at: index)
            index = document.skipWhitespace(from: document.end(ofStringAt: index)) + 1  // past `:`
            let value = document.skipWhitespace(from: index)
            index = document.skipWhitespace(from: document.end(ofValueAt: value))
            if document.bytes[index] == UInt8(ascii: ",") { index += 1 }
            return (key, value)
        }
    }

    /// The offsets of an array's elements in order.
    struct Elements: IteratorProtocol {
        let document: JSONDocument
        var index: Int

        mutating func next() -> Int? {
            index = document.skipWhitespace(from: index)
            guard document.bytes[index] != UInt8(ascii: "]") else { return nil }
            let value = index
            index = document.skipWhitespace(from: document.end(ofValueAt: value))
            if document.bytes[index] == UInt8(ascii: ",") { index += 1 }
            return value
        }
    }

    /// The members of the object at `offset`.
    func members(ofObjectAt offset: Int) -> Members { Members(document: self, index: offset + 1) }

    /// The elements of the array at `offset`.
    func elements(ofArrayAt offset: Int) -> Elements { Elements(document: self, index: offset + 1) }

    // MARK: - Scalars

    /// The string at `offset`, escapes decoded (the check has made sure they and the UTF-8 are valid).
    func string(at offset: Int) -> String {
        let start = offset + 1
        let end = end(ofStringAt: offset) - 1
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard raw.contains(UInt8(ascii: "\\")) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = start
        while index < end {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(at: index)
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex4(at: index + 2) - 0xDC00)
                    index += 6
                }
                // The check refused lone surrogates, so every scalar here is valid.
                let unicode = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                UTF8.encode(unicode) { out.append($0) }
            default: out.append(escape)  // `"`, `\`, `/`
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The four hexadecimal digits at `offset`.
    func hex4(at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt8 = switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: byte - UInt8(ascii: "A") + 10
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The boolean at `offset`.
    func boolean(at offset: Int) -> Bool { bytes[offset] == UInt8(ascii: "t") }

    /// The number at `offset` as written.
    func numberText(at offset: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end(ofValueAt: offset)]), as: UTF8.self)
    }

    /// The number at `offset` if its value is an integer that `Int` holds, however it is written: `100`, `1e2`,
    /// `100.00` and `1.0e2` are 100; `1.5`, `1e-400` and `9223372036854775808` are not integers `Int` holds.
    ///
    /// Read from the decimal digits, never through a `Double` (which would load 2^53 + 1 as 2^53, and
    /// `1211685118427385.058` as a whole number).
    func integer(at offset: Int) -> Int? {
        Self.exactInteger(UnsafeBufferPointer(rebasing: bytes[offset..<end(ofValueAt: offset)]))
    }

    /// The integer a valid JSON number literal denotes, if it is one and `Int` holds it.
    static func exactInteger(_ literal: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        let negative = literal.first == UInt8(ascii: "-")
        if negative { index += 1 }
        // The value is 0.d1d2d3... × 10^point, with d1 the first non-zero digit.
        var digits: [UInt8] = []
        var point = 0
        var seenPoint = false
        while index < literal.count {
            let byte = literal[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                break
            } else if digits.isEmpty && byte == UInt8(ascii: "0") {
                // A zero before the first significant digit: after the point, it moves the point one place left.
                if seenPoint { point -= 1 }
            } else {
                digits.append(byte)
                if !seenPoint { point += 1 }
            }
            index += 1
        }
        guard !digits.isEmpty else { return 0 }  // 0, -0, 0.000, 0e5
        if index < literal.count {
            index += 1
            let negativeExponent = literal[index] == UInt8(ascii: "-")
            if literal[index] == UInt8(ascii: "-") || literal[index] == UInt8(ascii: "+") { index += 1 }
            // An exponent past 10 000 puts the value beyond Int or below 1 whatever the digits: saturate, not overflow.
            var exponent = 0
            while index < literal.count {
                exponent = min(exponent * 10 + Int(literal[index] - UInt8(ascii: "0")), 10_000)
                index += 1
            }
            point += negativeExponent ? -exponent : exponent
        }
        // An integer has no non-zero digit after the point, and Int has at most 19 digits.
        guard point > 0, point <= 19, digits[min(point, digits.count)...].allSatisfy({ $0 == UInt8(ascii: "0") }) else {
            return nil
        }
        var text = negative ? "-" : ""
        text.unicodeScalars.append(contentsOf: digits.prefix(point).map { Unicode.Scalar($0) })
        text += String(repeating: "0", count: max(0, point - digits.count))
        return Int(text)
    }

    /// The number at `offset` as an error message shows it: an integer as its value, any other number as the
    /// `Double` it is (`1.5`, `100.0`, `1e+300`), which is how `JSONSerialization`'s numbers printed, unless it has
    /// more significant digits than a `Double` keeps or is out of its range: then as written.
    func numberDescription(at offset: Int) -> String {
        let text = numberText(at: offset)
        if Self.isIntegerLiteral(text) {
            if let value = Int64(text) { return "\(value)" }
            if let value = UInt64(text) { return "\(value)" }
        }
        let mantissa = text.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
        let significant = mantissa.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") }
            .filter { $0 != UInt8(ascii: ".") }.count
        // A Double that rounded to infinity or to zero would show another number than the table's.
        guard significant <= 17, let value = Double(text), value.isFinite, value != 0 || significant == 0 else { return text }
        return "\(value)"
    }

    static func isIntegerLiteral(_ text: String) -> Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }
}
