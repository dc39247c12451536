/// AOSP's `PATTERN_ADVANCED_GLOB`: the parser (`parseAndVerifyAdvancedPattern`) and the matcher
/// (`matchAdvancedPattern`), with AOSP's parsed form so the two agree on every quirk.
///
/// Parsed form: one `Int32` per entry; a non-negative entry is a UTF-16 code unit, a negative one a placeholder.
/// A set is `setStart` (or `inverseSetStart`), then (low, high) pairs, then `setStop`; a range modifier is
/// `rangeStart, min, max, rangeStop`. The matcher takes, for each token, as many characters as it can up to the
/// modifier's maximum and fails below the minimum: no backtracking, so time is linear in the string plus the
/// pattern (times the size of a set). Both loops are iterative.
enum AdvancedGlob {
    static let setStart: Int32 = -1
    static let inverseSetStart: Int32 = -2
    static let setStop: Int32 = -3
    static let any: Int32 = -4
    static let rangeStart: Int32 = -5
    static let rangeStop: Int32 = -6
    static let zeroOrMore: Int32 = -7
    static let oneOrMore: Int32 = -8
    /// AOSP's `MAX_PATTERN_STORAGE`: the parse fails once more than 2045 entries are written.
    static let maximumStorage = 2048

    private static func isModifier(_ entry: Int32) -> Bool {
        entry == oneOrMore || entry == zeroOrMore || entry == rangeStop || entry == rangeStart
    }

    private static func ascii(_ c: Character) -> UInt16 { UInt16(c.asciiValue!) }

    static func parse(_ p: [UInt16], pattern: String) throws(AssociationError) -> [Int32] {
        func reject(_ offset: Int, _ what: String) -> AssociationError {
            let found: String
            if offset < p.count {
                found = "found \"\(String(decoding: p[offset...].prefix(12), as: UTF16.self))\""
            } else {
                found = "found the end of the pattern"
            }
            return AssociationError(
                code: .invalidPattern,
                message: "advanced pattern \"\(pattern)\" at offset \(offset): \(what), \(found); Android rejects it")
        }
        var out: [Int32] = []
        out.reserveCapacity(min(p.count * 2, maximumStorage))
        var ip = 0
        var inSet = false, inRange = false, inCharClass = false
        let lp = p.count
        while ip < lp {
            if out.count > maximumStorage - 3 {
                throw reject(ip, "expected at most \(maximumStorage - 3) parsed entries (\"Pattern is too large!\")")
            }
            var c = p[ip]
            var addToParsed = false
            switch c {
            case ascii("["):
                if inSet {
                    addToParsed = true
                } else {
                    // AOSP reads the character after `[` unguarded: a trailing `[` throws there.
                    guard ip + 1 < lp else { throw reject(ip, "expected a set after \"[\"") }
                    if p[ip + 1] == ascii("^") {
                        out.append(inverseSetStart)
                        ip += 1
                    } else {
                        out.append(setStart)
                    }
                    ip += 1
                    inSet = true
                    continue
                }
            case ascii("]"):
                if !inSet {
                    addToParsed = true
                } else {
                    if let last = out.last, last == setStart || last == inverseSetStart {
                        throw reject(ip, "expected characters in the set (\"You must define characters in a set.\")")
                    }
                    out.append(setStop)
                    inSet = false
                    inCharClass = false
                }
            case ascii("{"):
                if !inSet {
                    if out.isEmpty || isModifier(out[out.count - 1]) {
                        throw reject(ip, "expected a token before the modifier \"{\"")
                    }
                    out.append(rangeStart)
                    ip += 1
                    inRange = true
                }
            case ascii("}"):
                // Outside a range a `}` is neither a token nor an error: AOSP drops it.
                if inRange {
                    out.append(rangeStop)
                    inRange = false
                }
            case ascii("*"), ascii("+"):
                if !inSet {
                    if out.isEmpty || isModifier(out[out.count - 1]) {
                        throw reject(ip, "expected a token before the modifier \"\(c == ascii("*") ? "*" : "+")\"")
                    }
                    out.append(c == ascii("*") ? zeroOrMore : oneOrMore)
                }
            case ascii("."):
                if !inSet { out.append(any) }
            case ascii("\\"):
                guard ip + 1 < lp else { throw reject(ip, "expected a character after the escape \"\\\"") }
                ip += 1
                c = p[ip]
                addToParsed = true
            default:
                addToParsed = true
            }
            if inSet {
                if inCharClass {
                    out.append(Int32(c))
                    inCharClass = false
                } else if ip + 2 < lp && p[ip + 1] == ascii("-") && p[ip + 2] != ascii("]") {
                    inCharClass = true
                    out.append(Int32(c))  // the low end of a range
                    ip += 1  // past the dash
                } else {
                    out.append(Int32(c))
                    out.append(Int32(c))
                }
            } else if inRange {
                guard let end = p[ip...].firstIndex(of: ascii("}")) else {
                    throw reject(ip, "expected \"}\" to end the range")
                }
                let text = p[ip..<end]
                let bounds: (Int32, Int32)
                if let comma = text.firstIndex(of: ascii(",")) {
                    guard let low = javaParseInt(text[..<comma]) else {
                        throw reject(ip, "expected a number before \",\" in the range")
                    }
                    if comma == end - 1 {
                        bounds = (low, Int32.max)
                    } else {
                        guard let high = javaParseInt(text[(comma + 1)...]) else {
                            throw reject(comma + 1, "expected a number after \",\" in the range")
                        }
                        bounds = (low, high)
                    }
                } else {
                    guard let n = javaParseInt(text) else { throw reject(ip, "expected a number in the range") }
                    bounds = (n, n)
                }
                if bounds.0 > bounds.1 {
                    throw reject(ip, "expected a minimum no greater than the maximum in the range")
                }
                out.append(bounds.0)
                out.append(bounds.1)
                ip = end
                continue
            } else if addToParsed {
                out.append(Int32(c))
            }
            ip += 1
        }
        if inSet { throw reject(lp, "expected \"]\" to end the set") }
        return out
    }

    /// Java's `Integer.parseInt(s, 10)`: an optional `+` or `-`, then one or more decimal digits of any script,
    /// within `Int32`; `nil` where Java throws `NumberFormatException`.
    static func javaParseInt(_ s: ArraySlice<UInt16>) -> Int32? {
        var i = s.startIndex
        guard i < s.endIndex else { return nil }
        var negative = false
        if s[i] == ascii("-") || s[i] == ascii("+") {
            negative = s[i] == ascii("-")
            i += 1
            guard i < s.endIndex else { return nil }
        }
        var value: Int64 = 0
        while i < s.endIndex {
            guard let scalar = Unicode.Scalar(UInt32(s[i])),
                  scalar.properties.numericType == .decimal,
                  let digit = scalar.properties.numericValue
            else { return nil }
            value = value * 10 + Int64(digit)
            if value > Int64(Int32.max) + (negative ? 1 : 0) { return nil }
            i += 1
        }
        return Int32(negative ? -value : value)
    }

    static func matches(_ parsed: [Int32], _ match: [UInt16]) -> Bool {
        var ip = 0, im = 0
        let lp = parsed.count, lm = match.count
        while ip < lp {
            let tokenType: Int32
            var start = 0, end = 0
            switch parsed[ip] {
            case any:
                tokenType = any
                ip += 1
            case setStart, inverseSetStart:
                tokenType = parsed[ip]
                start = ip + 1
                ip += 1
                while ip < lp && parsed[ip] != setStop { ip += 1 }
                end = ip - 1
                ip += 1
            default:
                start = ip
                tokenType = 0
                ip += 1
            }
            var minimum: Int32 = 1, maximum: Int32 = 1
            if ip < lp {
                switch parsed[ip] {
                case zeroOrMore:
                    (minimum, maximum) = (0, .max)
                    ip += 1
                case oneOrMore:
                    (minimum, maximum) = (1, .max)
                    ip += 1
                case rangeStart:
                    minimum = parsed[ip + 1]
                    maximum = parsed[ip + 2]
                    ip += 4
                default:
                    break
                }
            }
            if minimum > maximum { return false }
            var matched: Int32 = 0
            while matched < maximum && im + Int(matched) < lm
                && matchesOne(match[im + Int(matched)], tokenType, parsed, start, end) {
                matched += 1
            }
            if matched < minimum { return false }
            im += Int(matched)
        }
        return im >= lm
    }

    private static func matchesOne(_ unit: UInt16, _ tokenType: Int32, _ parsed: [Int32], _ start: Int, _ end: Int) -> Bool {
        let u = Int32(unit)
        switch tokenType {
        case any: return true
        case setStart, inverseSetStart:
            var i = start
            var inSet = false
            while i < end {
                if u >= parsed[i] && u <= parsed[i + 1] { inSet = true; break }
                i += 2
            }
            return tokenType == setStart ? inSet : !inSet
        default:
            return u == parsed[start]
        }
    }
}
