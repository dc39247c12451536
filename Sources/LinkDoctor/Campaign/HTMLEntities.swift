/// Decodes HTML character references in an attribute value, the way browsers do (HTML's "character reference
/// state" in an attribute).
enum HTMLEntities {
    /// The named references known here; the ones in ``legacy`` may also appear without `;`.
    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "copy": "\u{A9}", "reg": "\u{AE}", "trade": "\u{2122}", "hellip": "\u{2026}", "ndash": "\u{2013}",
        "mdash": "\u{2014}", "laquo": "\u{AB}", "raquo": "\u{BB}", "euro": "\u{20AC}", "shy": "\u{AD}",
        "lsquo": "\u{2018}", "rsquo": "\u{2019}", "ldquo": "\u{201C}", "rdquo": "\u{201D}",
    ]
    /// Names HTML decodes even without `;` (a subset of its legacy list, the ones in ``named``).
    static let legacy: Set<String> = ["amp", "lt", "gt", "quot", "nbsp", "copy", "reg", "laquo", "raquo", "shy"]

    /// What browsers substitute for numeric references to C1 controls (the Windows-1252 reading).
    static let windows1252: [UInt32: UInt32] = [
        0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
        0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152, 0x8E: 0x017D, 0x91: 0x2018,
        0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC,
        0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A, 0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
    ]

    /// The value with its character references decoded; unknown or malformed references stay as written.
    ///
    /// One pass over the UTF-8 bytes into one growing byte buffer: linear in the value's length. (Appending to a
    /// `String.UnicodeScalarView` reference by reference made 800 000 `&amp` take 7.6 s and 4 million 382 s.)
    /// Every byte the syntax looks at is ASCII, and no byte of a multi-byte UTF-8 sequence is ASCII, so working on
    /// bytes reads what a reading by scalars reads.
    static func decode(_ value: String) -> String {
        var value = value
        return value.withUTF8 { bytes in
            guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "&") else {
                    out.append(bytes[index])
                    index += 1
                    continue
                }
                if let length = numeric(bytes, at: index, into: &out) ?? namedReference(bytes, at: index, into: &out) {
                    index += length
                } else {
                    out.append(UInt8(ascii: "&"))
                    index += 1
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// `&#NNN;` or `&#xHH;` (the `;` optional, as browsers accept it), with HTML's replacements, appended to `out`;
    /// the length read, or `nil` (nothing appended).
    private static func numeric(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, into out: inout [UInt8]) -> Int? {
        var index = start + 1
        guard index < bytes.count, bytes[index] == UInt8(ascii: "#") else { return nil }
        index += 1
        var radix: UInt32 = 10
        if index < bytes.count, bytes[index] == UInt8(ascii: "x") || bytes[index] == UInt8(ascii: "X") {
            radix = 16
            index += 1
        }
        var value: UInt32 = 0
        var digits = 0
        while index < bytes.count, let digit = hexDigitValue(bytes[index]), digit < radix {
            value = min(value &* radix &+ digit, 0x110000)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ";") { index += 1 }
        let code: UInt32
        if let mapped = windows1252[value] {
            code = mapped
        } else if value == 0 || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) {
            code = 0xFFFD
        } else {
            code = value
        }
        out.append(contentsOf: String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8)
        return index - start
    }

    private static func hexDigitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The longest known name after `&` (at most 8 characters: a constant per reference); without `;` only a legacy
    /// name not followed by an alphanumeric or `=`. Appends the text to `out`; the length read, or `nil`.
    private static func namedReference(
        _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, into out: inout [UInt8]
    ) -> Int? {
        var index = start + 1
        var best: (String, Int)?
        while index < bytes.count, isASCIIAlphanumeric(bytes[index]), index - start - 1 < 8 {
            index += 1
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<index]), as: UTF8.self)
            guard let text = named[name] else { continue }
            if index < bytes.count, bytes[index] == UInt8(ascii: ";") {
                best = (text, index + 1 - start)
                break
            }
            if legacy.contains(name) {
                let next = index < bytes.count ? bytes[index] : UInt8(ascii: " ")
                let blocked = next == UInt8(ascii: "=") || isASCIIAlphanumeric(next)
                best = blocked ? nil : (text, index - start)
            }
        }
        guard let (text, length) = best else { return nil }
        out.append(contentsOf: text.utf8)
        return length
    }

    /// HTML's "ASCII alphanumeric": what a reference's name is made of, and what blocks a legacy one.
    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
