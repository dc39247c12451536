/// AOSP's `PATTERN_SIMPLE_GLOB` matcher (`PatternMatcher.matchGlobPattern`), step for step.
///
/// The walk keeps AOSP's shape (the current character `c`, the one after it `next`, one index into each string)
/// because its quirks are the behaviour: `.*` jumps to the first occurrence of the character after it and never
/// backtracks; the character after `.*` is compared literally (a `.` there is a dot); `x*` eats a run of `x`.
/// One pass over each string, no recursion, no allocation.
enum SimpleGlob {
    private static let dot = UInt16(UInt8(ascii: "."))
    private static let star = UInt16(UInt8(ascii: "*"))
    private static let backslash = UInt16(UInt8(ascii: "\\"))

    static func matches(pattern: [UInt16], _ match: [UInt16], escapedDotIsLiteral: Bool) -> Bool {
        let np = pattern.count
        if np == 0 { return match.isEmpty }
        let nm = match.count
        var ip = 0, im = 0
        // 0 stands for "past the end", as Java's `(char) 0` does; a real U+0000 in a pattern behaves the same.
        func at(_ i: Int) -> UInt16 { i < np ? pattern[i] : 0 }
        var next = pattern[0]
        while ip < np && im < nm {
            var c = next
            ip += 1
            next = at(ip)
            let escaped = c == backslash
            if escaped {
                c = next
                ip += 1
                next = at(ip)
            }
            if next == star {
                if !escaped && c == dot {
                    if ip >= np - 1 { return true }  // the pattern ends with `.*`
                    ip += 1
                    next = pattern[ip]
                    if next == backslash {
                        ip += 1
                        next = at(ip)
                    }
                    // Skip to the first occurrence of the next pattern character: no backtracking.
                    while im < nm && match[im] != next { im += 1 }
                    if im == nm { return false }
                    ip += 1
                    next = at(ip)
                    im += 1
                } else {
                    // A run of the character before `*`.
                    while im < nm && match[im] == c { im += 1 }
                    ip += 1
                    next = at(ip)
                }
            } else {
                let anyCharacter = c == dot && !(escaped && escapedDotIsLiteral)
                if !anyCharacter && match[im] != c { return false }
                im += 1
            }
        }
        if ip >= np && im >= nm { return true }
        // The match string is used up but the pattern still ends with `.*`.
        return ip == np - 2 && pattern[ip] == dot && pattern[ip + 1] == star
    }
}
