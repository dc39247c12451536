/// The package's one UTF-8 validator: well-formed sequences only (no overlong forms, no surrogates, nothing past
/// U+10FFFF), as RFC 3629 and Unicode's table 3-7 define them.
package enum UTF8Validation {
    /// The length of the well-formed multi-byte sequence that starts at `index` (its lead byte is 0x80 or more).
    ///
    /// - Returns: 2, 3 or 4; or the negated offset of the first byte that breaks the sequence (the lead byte itself
    ///   when it can start no sequence, `bytes.count` when the text ends inside it), as `-offset - 1`.
    @inline(__always)
    package static func multiByteSequence(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
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
        default: return -index - 1
        }
        var k = 1
        while k < length {
            guard index + k < bytes.count else { return -bytes.count - 1 }
            let byte = bytes[index + k]
            guard byte >= (k == 1 ? low : 0x80), byte <= (k == 1 ? high : 0xBF) else { return -(index + k) - 1 }
            k += 1
        }
        return length
    }

    /// The offset of the first byte that is not part of well-formed UTF-8, or `nil` when all of `bytes` is.
    package static func firstInvalidByte(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] < 0x80 {
                index += 1
                continue
            }
            let length = multiByteSequence(in: bytes, at: index)
            guard length > 0 else { return -length - 1 }
            index += length
        }
        return nil
    }

    /// The offset of the first byte that is not part of well-formed UTF-8 in `bytes`, or `nil`.
    package static func firstInvalidByte(in bytes: some Collection<UInt8>) -> Int? {
        if let answer = bytes.withContiguousStorageIfAvailable({ firstInvalidByte(in: $0) }) { return answer }
        return Array(bytes).withUnsafeBufferPointer { firstInvalidByte(in: $0) }
    }
}
