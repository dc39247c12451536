import Foundation

extension JSONDocument {
    /// Calls `body` with the UTF-8 text of `data`, read as `JSONSerialization` read it: UTF-8 (a byte-order mark
    /// skipped) in place, without a copy; UTF-16 or UTF-32 (told by a byte-order mark, or else by the zero bytes
    /// among the first four, RFC 4627) transcoded to UTF-8 first.
    ///
    /// - Returns: what `body` returns, or a failure when UTF-16 or UTF-32 text does not decode.
    static func withUTF8<R>(
        of data: Data, _ body: (UnsafeBufferPointer<UInt8>) -> Result<R, Failure>
    ) -> Result<R, Failure> {
        data.withUnsafeBytes { raw in
            let all = raw.bindMemory(to: UInt8.self)
            switch encoding(of: all) {
            case .utf8(let skip):
                return body(UnsafeBufferPointer(rebasing: all[skip...]))
            case .utf16(let bigEndian, let skip):
                guard let text = transcodeUTF16(all[skip...], bigEndian: bigEndian) else {
                    return .failure(Failure(offset: 0, line: 1, column: 1, message: "the text is UTF-16 (by its first bytes) but does not decode as UTF-16"))
                }
                return text.withUnsafeBufferPointer(body)
            case .utf32(let bigEndian, let skip):
                guard let text = transcodeUTF32(all[skip...], bigEndian: bigEndian) else {
                    return .failure(Failure(offset: 0, line: 1, column: 1, message: "the text is UTF-32 (by its first bytes) but does not decode as UTF-32"))
                }
                return text.withUnsafeBufferPointer(body)
            }
        }
    }

    private enum Encoding {
        case utf8(skip: Int)
        case utf16(bigEndian: Bool, skip: Int)
        case utf32(bigEndian: Bool, skip: Int)
    }

    /// swift-corelibs-foundation's detection: a byte-order mark first, then the pattern of zeros.
    private static func encoding(of b: UnsafeBufferPointer<UInt8>) -> Encoding {
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

    private static func transcodeUTF16(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, bigEndian: Bool) -> [UInt8]? {
        guard bytes.count % 2 == 0 else { return nil }
        let first = bigEndian ? 8 : 0
        let second = bigEndian ? 0 : 8
        var units = stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).lazy.map { (i: Int) -> UInt16 in
            let high = UInt16(bytes[i]) << UInt16(first)
            let low = UInt16(bytes[i + 1]) << UInt16(second)
            return high | low
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

    private static func transcodeUTF32(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, bigEndian: Bool) -> [UInt8]? {
        guard bytes.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count / 2)
        for i in stride(from: bytes.startIndex, to: bytes.endIndex, by: 4) {
            var value: UInt32 = 0
            for k in 0..<4 {
                let byte = UInt32(bytes[i + (bigEndian ? k : 3 - k)])
                value = value << 8 | byte
            }
            guard let scalar = Unicode.Scalar(value) else { return nil }
            UTF8.encode(scalar) { out.append($0) }
        }
        return out
    }
}
