/// Tells UTF-8 from UTF-16 and UTF-32 JSON text as `JSONSerialization` did (swift-corelibs-foundation: a byte-order
/// mark first, then the pattern of zero bytes among the first four, RFC 4627), and transcodes to UTF-8.
package enum UnicodeEncodingDetection {
    /// An encoding, and how many bytes of byte-order mark precede the text.
    package enum Encoding: Sendable, Hashable {
        case utf8(skip: Int)
        case utf16(bigEndian: Bool, skip: Int)
        case utf32(bigEndian: Bool, skip: Int)
    }

    /// The encoding of `b`, by its first bytes.
    package static func encoding(of b: UnsafeBufferPointer<UInt8>) -> Encoding {
        let n = b.count
        if n >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { return .utf8(skip: 3) }
        if n >= 4, b[0] == 0, b[1] == 0, b[2] == 0xFE, b[3] == 0xFF { return .utf32(bigEndian: true, skip: 4) }
        if n >= 2, b[0] == 0xFF, b[1] == 0xFE {
            return n >= 4 && b[2] == 0 && b[3] == 0 ? .utf32(bigEndian: false, skip: 4) : .utf16(bigEndian: false, skip: 2)
        }
        if n >= 2, b[0] == 0xFE, b[1] == 0xFF { return .utf16(bigEndian: true, skip: 2) }
        if n >= 4 {
            switch (b[0], b[1], b[2], b[3]) {
            case (0, 0, 0, _): return .utf32(bigEndian: true, skip: 0)
            case (_, 0, 0, 0): return .utf32(bigEndian: false, skip: 0)
            case (0, _, 0, _): return .utf16(bigEndian: true, skip: 0)
            case (_, 0, _, 0): return .utf16(bigEndian: false, skip: 0)
            default: return .utf8(skip: 0)
            }
        }
        if n >= 2 {
            if b[0] == 0 { return .utf16(bigEndian: true, skip: 0) }
            if b[1] == 0 { return .utf16(bigEndian: false, skip: 0) }
        }
        return .utf8(skip: 0)
    }

    /// UTF-16 text (after its byte-order mark) as UTF-8, or `nil` when it does not decode (odd length, a lone
    /// surrogate).
    package static func transcodeUTF16(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, bigEndian: Bool) -> [UInt8]? {
        guard bytes.count % 2 == 0 else { return nil }
        let first = bigEndian ? 8 : 0
        let second = bigEndian ? 0 : 8
        var units = stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).lazy.map { (i: Int) -> UInt16 in
            UInt16(bytes[i]) << UInt16(first) | UInt16(bytes[i + 1]) << UInt16(second)
        }.makeIterator()
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var decoder = UTF16()
        while true {
            switch decoder.decode(&units) {
            case .scalarValue(let scalar): UTF8.encode(scalar) { out.append($0) }
            case .emptyInput: return out
            case .error: return nil
            }
        }
    }

    /// UTF-32 text (after its byte-order mark) as UTF-8, or `nil` when it does not decode.
    package static func transcodeUTF32(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, bigEndian: Bool) -> [UInt8]? {
        guard bytes.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count / 2)
        for i in stride(from: bytes.startIndex, to: bytes.endIndex, by: 4) {
            var value: UInt32 = 0
            for k in 0..<4 {
                value = value << 8 | UInt32(bytes[i + (bigEndian ? k : 3 - k)])
            }
            guard let scalar = Unicode.Scalar(value) else { return nil }
            UTF8.encode(scalar) { out.append($0) }
        }
        return out
    }
}
