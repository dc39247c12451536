/// A set of bytes as a 256-bit mask: the compiled form of `$(alpha)`, `$(digit)` and the other one-character
/// built-in variables.
struct ByteSet: Sendable, Hashable {
    private var w0: UInt64 = 0
    private var w1: UInt64 = 0
    private var w2: UInt64 = 0
    private var w3: UInt64 = 0

    init() {}

    init<S: Sequence<UInt8>>(_ bytes: S) {
        for b in bytes { insert(b) }
    }

    mutating func insert(_ b: UInt8) {
        let bit = UInt64(1) << UInt64(b & 63)
        switch b >> 6 {
        case 0: w0 |= bit
        case 1: w1 |= bit
        case 2: w2 |= bit
        default: w3 |= bit
        }
    }

    func contains(_ b: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(b & 63)
        switch b >> 6 {
        case 0: return w0 & bit != 0
        case 1: return w1 & bit != 0
        case 2: return w2 & bit != 0
        default: return w3 & bit != 0
        }
    }

    /// No byte of the set is above 0x7F: a byte it takes is always a whole character.
    var isASCII: Bool { w2 == 0 && w3 == 0 }

    /// The same set with ASCII upper-case letters replaced by lower-case ones, for case-insensitive rules.
    var folded: ByteSet {
        var result = ByteSet()
        for b in 0...255 where contains(UInt8(b)) {
            result.insert(ASCII.lower(UInt8(b)))
        }
        return result
    }
}

/// ASCII helpers for byte-level matching.
enum ASCII {
    @inline(__always)
    static func lower(_ b: UInt8) -> UInt8 {
        b >= 0x41 && b <= 0x5A ? b | 0x20 : b
    }

    static func lowered<C: Collection<UInt8>>(_ bytes: C) -> [UInt8] {
        bytes.map(lower)
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }

    /// Percent-decodes `%XX` sequences; a `%` not followed by two hex digits stays as it is. `+` stays `+`.
    static func percentDecoded<C: Collection<UInt8>>(_ bytes: C) -> [UInt8] where C.Index == Int {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == 0x25, i + 2 < bytes.endIndex,
               let hi = hexValue(bytes[i + 1]), let lo = hexValue(bytes[i + 2]) {
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(b)
                i += 1
            }
        }
        return out
    }
}
