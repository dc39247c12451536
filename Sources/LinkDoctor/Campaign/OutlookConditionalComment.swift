/// Reads a downlevel-hidden conditional comment (`<!--[if mso]> ... <![endif]-->`) as Outlook on Windows does: the
/// part of the comment it renders as markup, when its condition holds for Outlook.
///
/// To a browser, and so to every phone, the whole construct is one comment. Outlook 2000 to 365 on Windows
/// (`mso` 9 to 16; the Word engine since 2007) evaluates the condition; its content is what only Outlook shows.
/// The condition's grammar: `!`, `&`, `|`, parentheses, and terms `[lt|lte|gt|gte] FEATURE [VERSION]`; `mso`
/// holds for Outlook (with a version, compared to 9, 10, 11, 12, 14, 15 and 16), `true` always, any other feature
/// (`IE`, ...) never. A condition that does not parse holds for no one.
///
/// The evaluation is one left-to-right pass with two stacks (no recursion), each value a set of Outlook versions.
enum OutlookConditionalComment {
    /// The Outlook versions a condition is evaluated for, one bit each.
    static let versions: [Int] = [9, 10, 11, 12, 14, 15, 16]
    private static let allVersions: UInt8 = 0x7F

    /// The range of the content Outlook renders, when `bytes[data]` (a comment's data) is `[if CONDITION]>...`
    /// and the condition holds for some Outlook: from after `]>` to the last `<![endif]`, or to the end.
    static func outlookContent(_ bytes: [UInt8], data: Range<Int>) -> Range<Int>? {
        let opener = Array("[if".utf8)
        guard data.count > opener.count + 2,
              zip(bytes[data.lowerBound...], opener).allSatisfy({ HTMLTokenizer.lower($0) == $1 }),
              let close = bytes[data].firstIndex(of: UInt8(ascii: "]")),
              close + 1 < data.upperBound, bytes[close + 1] == UInt8(ascii: ">"),
              holds(bytes[(data.lowerBound + opener.count)..<close])
        else { return nil }
        let start = close + 2
        return start..<(lastEndif(bytes, in: start..<data.upperBound) ?? data.upperBound)
    }

    /// Where the last `<![endif]` (any case) of `range` starts.
    private static func lastEndif(_ bytes: [UInt8], in range: Range<Int>) -> Int? {
        let marker = Array("<![endif]".utf8)
        var start = range.upperBound - marker.count
        while start >= range.lowerBound {
            if zip(bytes[start...], marker).allSatisfy({ HTMLTokenizer.lower($0) == $1 }) { return start }
            start -= 1
        }
        return nil
    }

    /// Whether the condition holds for at least one Outlook version.
    static func holds(_ condition: ArraySlice<UInt8>) -> Bool {
        (evaluate(condition) ?? 0) != 0
    }

    private enum Operator: UInt8 {
        case open, or, and, not

        var precedence: Int {
            switch self {
            case .open: 0
            case .or: 1
            case .and: 2
            case .not: 3
            }
        }
    }

    /// The set of versions the condition holds for, or `nil` when it does not parse.
    private static func evaluate(_ condition: ArraySlice<UInt8>) -> UInt8? {
        var values: [UInt8] = []
        var operators: [Operator] = []
        var words: [ArraySlice<UInt8>] = []
        // After a term or `)`, a binary operator or `)` is expected; otherwise a term, `!` or `(`.
        var expectsOperand = true

        func apply(_ op: Operator) -> Bool {
            switch op {
            case .not:
                guard let value = values.popLast() else { return false }
                values.append(~value & allVersions)
            case .and, .or:
                guard let rhs = values.popLast(), let lhs = values.popLast() else { return false }
                values.append(op == .and ? lhs & rhs : lhs | rhs)
            case .open:
                return false
            }
            return true
        }
        func push(_ op: Operator) -> Bool {
            // `!` and `(` wait for their operand, so nothing before them is reduced.
            if op == .and || op == .or {
                while let top = operators.last, top != .open, top.precedence >= op.precedence {
                    guard apply(operators.removeLast()) else { return false }
                }
            }
            operators.append(op)
            return true
        }
        func endTerm() -> Bool {
            guard !words.isEmpty else { return true }
            defer { words.removeAll(keepingCapacity: true) }
            guard expectsOperand, let value = term(words) else { return false }
            values.append(value)
            expectsOperand = false
            return true
        }

        var index = condition.startIndex
        while index < condition.endIndex {
            let byte = condition[index]
            switch byte {
            case UInt8(ascii: " "), 0x09, 0x0A, 0x0C:
                index += 1
            case UInt8(ascii: "("), UInt8(ascii: "!"):
                guard endTerm(), expectsOperand, push(byte == UInt8(ascii: "(") ? .open : .not) else { return nil }
                index += 1
            case UInt8(ascii: "&"), UInt8(ascii: "|"):
                guard endTerm(), !expectsOperand, push(byte == UInt8(ascii: "&") ? .and : .or) else { return nil }
                expectsOperand = true
                index += 1
            case UInt8(ascii: ")"):
                guard endTerm(), !expectsOperand else { return nil }
                var opened = false
                while let top = operators.popLast() {
                    if top == .open {
                        opened = true
                        break
                    }
                    guard apply(top) else { return nil }
                }
                guard opened else { return nil }
                index += 1
            default:
                let start = index
                while index < condition.endIndex, HTMLEntities.isASCIIAlphanumeric(condition[index])
                    || condition[index] == UInt8(ascii: ".") {
                    index += 1
                }
                guard index > start else { return nil }
                words.append(condition[start..<index])
            }
        }
        guard endTerm(), !expectsOperand else { return nil }
        while let top = operators.popLast() {
            guard apply(top) else { return nil }
        }
        return values.count == 1 ? values[0] : nil
    }

    /// `[lt|lte|gt|gte] FEATURE [VERSION]` as a set of versions.
    private static func term(_ words: [ArraySlice<UInt8>]) -> UInt8? {
        let lowered = words.map { String(decoding: $0.map(HTMLTokenizer.lower), as: UTF8.self) }
        var rest = lowered[...]
        var comparison: String?
        if let first = rest.first, ["lt", "lte", "gt", "gte"].contains(first), rest.count > 1 {
            comparison = first
            rest = rest.dropFirst()
        }
        guard let feature = rest.first, rest.count <= 2 else { return nil }
        var version: Int?
        if rest.count == 2 {
            let text = rest[rest.startIndex + 1]
            guard let major = Int(text.prefix { $0 != "." }) else { return nil }
            version = major
        }
        switch feature {
        case "true" where version == nil && comparison == nil: return allVersions
        case "false" where version == nil && comparison == nil: return 0
        case "mso": break
        default: return 0
        }
        guard let version else { return comparison == nil ? allVersions : nil }
        var set: UInt8 = 0
        for (bit, outlook) in versions.enumerated() {
            let holds: Bool =
                switch comparison {
                case "lt": outlook < version
                case "lte": outlook <= version
                case "gt": outlook > version
                case "gte": outlook >= version
                default: outlook == version
                }
            if holds { set |= 1 << bit }
        }
        return set
    }
}
