/// What a JSON number literal denotes, read from its decimal digits, never through a `Double` (which would load
/// 2^53 + 1 as 2^53, and `1211685118427385.058` as a whole number).
package enum JSONNumber {
    /// The integer a valid JSON number literal denotes, if it is one and `Int` holds it: `100`, `1e2`, `100.00`
    /// and `1.0e2` are 100; `1.5`, `1e-400` and `9223372036854775808` are not integers `Int` holds.
    package static func exactInteger(_ literal: String) -> Int? {
        let literal = Array(literal.utf8)
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
}
