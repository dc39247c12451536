/// Decodes the character references of an attribute value as the HTML standard's tokenizer does (its "character
/// reference state" with an attribute value as the return state).
///
/// - Named references: the standard's whole table (``tableText``, generated from its data), longest match first.
///   A name without `;` matches only when the table has it so (the legacy names, such as `&amp`, `&uuml`), and in an
///   attribute it stays as written when `=` or an ASCII alphanumeric follows (so `?a=1&copy=2` keeps its key).
/// - Numeric references, decimal or hex, `;` optional: 0, surrogates and values past U+10FFFF become U+FFFD, and
///   0x80-0x9F take the standard's replacements (the Windows-1252 reading).
/// - Anything else stays as written; U+0000 becomes U+FFFD, as the attribute value states write it.
///
/// Every byte the syntax looks at is ASCII, and no byte of a multi-byte UTF-8 sequence is ASCII, so the decoder works
/// on UTF-8 bytes and reads what a reading by scalars reads. One pass, one output buffer: linear in the value, and a
/// reference costs at most one binary search per byte of the longest name (32 bytes).
enum HTMLEntities {
    /// The named references, read from ``tableText`` at first use.
    static let table = Table(tableText)

    /// What the standard substitutes for numeric references to C1 controls (the Windows-1252 reading).
    static let c1Replacements: [UInt32: UInt32] = [
        0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
        0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152, 0x8E: 0x017D, 0x91: 0x2018,
        0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC,
        0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A, 0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
    ]

    /// The value with its character references decoded.
    static func decode(_ value: String) -> String {
        let bytes = Array(value.utf8)
        var out: [UInt8] = []
        decode(bytes, bytes.indices, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `bytes[range]`, an attribute value as written, to `out` with its character references decoded.
    static func decode(_ bytes: [UInt8], _ range: Range<Int>, into out: inout [UInt8]) {
        var steps = 0
        decode(bytes, range, into: &out, steps: &steps)
    }

    /// ``decode(_:_:into:)``, adding the work done to `steps`: one step per byte read and per probe of the table's
    /// binary searches (what the tests hold to the value's length).
    static func decode(_ bytes: [UInt8], _ range: Range<Int>, into out: inout [UInt8], steps: inout Int) {
        out.reserveCapacity(out.count + range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            steps += 1
            let byte = bytes[index]
            if byte == 0 {
                appendUTF8(0xFFFD, to: &out)
                index += 1
            } else if byte != UInt8(ascii: "&") {
                out.append(byte)
                index += 1
            } else if let length = numeric(bytes, at: index, end: range.upperBound, into: &out, steps: &steps)
                ?? named(bytes, at: index, end: range.upperBound, into: &out, steps: &steps) {
                index += length
            } else {
                // Not a reference: the `&` is text, and what follows is read on.
                out.append(byte)
                index += 1
            }
        }
    }

    /// `&#NNN` or `&#xHH`, `;` optional, with the standard's replacements, appended to `out`; the length read, or
    /// `nil` (nothing appended) when no digit follows.
    private static func numeric(_ bytes: [UInt8], at start: Int, end: Int, into out: inout [UInt8], steps: inout Int) -> Int? {
        var index = start + 1
        guard index < end, bytes[index] == UInt8(ascii: "#") else { return nil }
        index += 1
        var radix: UInt32 = 10
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            index += 1
        }
        var value: UInt32 = 0
        var digits = 0
        while index < end, let digit = hexDigitValue(bytes[index]), digit < radix {
            steps += 1
            // Past U+10FFFF the value only needs to stay past it.
            value = min(value &* radix &+ digit, 0x110000)
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < end, bytes[index] == UInt8(ascii: ";") { index += 1 }
        let code: UInt32 =
            if value == 0 || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) {
                0xFFFD
            } else {
                c1Replacements[value] ?? value
            }
        appendUTF8(code, to: &out)
        return index - start
    }

    /// The longest name of the table after `&`, its text appended to `out`; the length read, or `nil` when no name
    /// matches, or when a name without `;` is followed by `=` or an ASCII alphanumeric (the attribute rule).
    private static func named(_ bytes: [UInt8], at start: Int, end: Int, into out: inout [UInt8], steps: inout Int) -> Int? {
        guard let (entry, length) = table.longestMatch(bytes, from: start + 1, end: end, steps: &steps) else { return nil }
        let after = start + 1 + length
        if bytes[after - 1] != UInt8(ascii: ";"), after < end,
           bytes[after] == UInt8(ascii: "=") || isASCIIAlphanumeric(bytes[after]) {
            return nil
        }
        out.append(contentsOf: table.value(of: entry))
        return 1 + length
    }

    private static func hexDigitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// HTML's "ASCII alphanumeric": what a reference's name is made of, and what blocks a name without `;`.
    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Appends the UTF-8 form of a scalar value (never a surrogate: the callers replaced those).
    static func appendUTF8(_ code: UInt32, to out: inout [UInt8]) {
        switch code {
        case 0..<0x80:
            out.append(UInt8(code))
        case 0x80..<0x800:
            out.append(0xC0 | UInt8(code >> 6))
            out.append(0x80 | UInt8(code & 0x3F))
        case 0x800..<0x10000:
            out.append(0xE0 | UInt8(code >> 12))
            out.append(0x80 | UInt8((code >> 6) & 0x3F))
            out.append(0x80 | UInt8(code & 0x3F))
        default:
            out.append(0xF0 | UInt8(code >> 18))
            out.append(0x80 | UInt8((code >> 12) & 0x3F))
            out.append(0x80 | UInt8((code >> 6) & 0x3F))
            out.append(0x80 | UInt8(code & 0x3F))
        }
    }

    /// The named references as sorted arrays, for a longest-prefix search without allocating.
    struct Table: Sendable {
        /// Every name's bytes, one after the other, in byte order.
        private var names: [UInt8] = []
        /// Where each name starts in ``names``, and one past the last.
        private var nameStarts: [Int] = [0]
        /// Every name's text in UTF-8, in the same order.
        private var values: [UInt8] = []
        /// Where each name's text starts in ``values``, and one past the last.
        private var valueStarts: [Int] = [0]

        /// The number of names.
        var count: Int { nameStarts.count - 1 }

        /// Reads lines `name HEX HEX` (see ``HTMLEntities/tableText``).
        init(_ text: StaticString) {
            let bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                let fields = line.split(separator: UInt8(ascii: " "))
                guard let name = fields.first else { continue }
                names.append(contentsOf: name)
                nameStarts.append(names.count)
                for field in fields.dropFirst() {
                    let code = field.reduce(UInt32(0)) { $0 << 4 | (HTMLEntities.hexDigitValue($1) ?? 0) }
                    HTMLEntities.appendUTF8(code, to: &values)
                }
                valueStarts.append(values.count)
            }
        }

        /// The name of an entry, for tests and diagnostics.
        func name(of entry: Int) -> ArraySlice<UInt8> {
            names[nameStarts[entry]..<nameStarts[entry + 1]]
        }

        /// The UTF-8 text an entry stands for.
        func value(of entry: Int) -> ArraySlice<UInt8> {
            values[valueStarts[entry]..<valueStarts[entry + 1]]
        }

        /// The longest name that `bytes[start..<end]` begins with: its entry and length, or `nil`.
        ///
        /// Invariant: entries `lower..<upper` are the names that begin with the `depth` bytes read so far; as they
        /// are sorted, a name equal to those bytes comes first in the range, and the names with a given next byte
        /// are contiguous. Each byte read narrows the range with two binary searches; the range empties after at
        /// most 32 bytes (the longest name), whatever the input.
        func longestMatch(_ bytes: [UInt8], from start: Int, end: Int, steps: inout Int) -> (entry: Int, length: Int)? {
            var lower = 0
            var upper = count
            var depth = 0
            var best: (entry: Int, length: Int)?
            while start + depth < end {
                let byte = Int(bytes[start + depth])
                lower = firstEntry(in: lower..<upper, depth: depth, steps: &steps) { $0 >= byte }
                upper = firstEntry(in: lower..<upper, depth: depth, steps: &steps) { $0 > byte }
                guard lower < upper else { break }
                depth += 1
                if nameStarts[lower + 1] - nameStarts[lower] == depth { best = (lower, depth) }
            }
            return best
        }

        /// The first entry of `range` whose byte at `depth` (-1 past the name's end) satisfies `predicate`, which
        /// holds for a suffix of the range; `range.upperBound` when none does.
        private func firstEntry(in range: Range<Int>, depth: Int, steps: inout Int, where predicate: (Int) -> Bool) -> Int {
            var lower = range.lowerBound
            var upper = range.upperBound
            while lower < upper {
                steps += 1
                let middle = (lower + upper) / 2
                let position = nameStarts[middle] + depth
                let byte = position < nameStarts[middle + 1] ? Int(names[position]) : -1
                if predicate(byte) { upper = middle } else { lower = middle + 1 }
            }
            return lower
        }
    }
}
