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
    static func decode(_ value: String) -> String {
        guard value.contains("&") else { return value }
        let scalars = Array(value.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "&" else {
                out.append(scalars[index])
                index += 1
                continue
            }
            if let (decoded, length) = numeric(scalars, at: index) ?? namedReference(scalars, at: index) {
                out.append(contentsOf: decoded.unicodeScalars)
                index += length
            } else {
                out.append("&")
                index += 1
            }
        }
        return String(out)
    }

    /// `&#NNN;` or `&#xHH;` (the `;` optional, as browsers accept it), with HTML's replacements.
    private static func numeric(_ scalars: [Unicode.Scalar], at start: Int) -> (String, Int)? {
        var index = start + 1
        guard index < scalars.count, scalars[index] == "#" else { return nil }
        index += 1
        var radix: UInt32 = 10
        if index < scalars.count, scalars[index] == "x" || scalars[index] == "X" {
            radix = 16
            index += 1
        }
        var value: UInt32 = 0
        var digits = 0
        while index < scalars.count, scalars[index].isASCII, let digit = Character(scalars[index]).hexDigitValue,
              UInt32(digit) < radix {
            value = min(value &* radix &+ UInt32(digit), 0x110000)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < scalars.count, scalars[index] == ";" { index += 1 }
        let code: UInt32
        if let mapped = windows1252[value] {
            code = mapped
        } else if value == 0 || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) {
            code = 0xFFFD
        } else {
            code = value
        }
        return (String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")), index - start)
    }

    /// The longest known name after `&`; without `;` only a legacy name not followed by an alphanumeric or `=`.
    private static func namedReference(_ scalars: [Unicode.Scalar], at start: Int) -> (String, Int)? {
        var name = ""
        var index = start + 1
        var best: (String, Int)?
        while index < scalars.count, isASCIIAlphanumeric(scalars[index]), name.count < 8 {
            name.unicodeScalars.append(scalars[index])
            index += 1
            guard let text = named[name] else { continue }
            if index < scalars.count, scalars[index] == ";" {
                return (text, index + 1 - start)
            }
            if legacy.contains(name) {
                let next = index < scalars.count ? scalars[index] : " "
                let blocked = next == "=" || isASCIIAlphanumeric(next)
                best = blocked ? nil : (text, index - start)
            }
        }
        return best
    }

    /// HTML's "ASCII alphanumeric": what a reference's name is made of, and what blocks a legacy one.
    private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
