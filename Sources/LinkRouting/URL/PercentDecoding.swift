/// Byte-level percent-decoding with one deterministic rule for malformed input.
///
/// Foundation's decoders disagree between platforms on bad input (`removingPercentEncoding` returns `nil`,
/// `URLComponents` on Linux re-encodes a whole component after one bad escape), so the router decodes bytes itself:
/// - `%XY` with two hexadecimal digits becomes the byte `0xXY`;
/// - a `%` not followed by two hexadecimal digits (`%zz`, a truncated `%4`) stays literally in the output;
/// - when the decoded bytes are not valid UTF-8 (`%FF`), the input is returned unchanged, still encoded.
enum PercentDecoding {
    /// Decodes `%XY` escapes in `text`; the fast path returns the input itself when it contains no `%`.
    static func decode(_ text: String) -> String {
        guard contains(UInt8(ascii: "%"), in: text) else { return text }
        let utf8 = text.utf8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                if first != utf8.endIndex {
                    let second = utf8.index(after: first)
                    if second != utf8.endIndex, let high = hexValue(utf8[first]), let low = hexValue(utf8[second]) {
                        bytes.append(high << 4 | low)
                        index = utf8.index(after: second)
                        continue
                    }
                }
            }
            bytes.append(byte)
            index = utf8.index(after: index)
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    /// Whether `text` contains `byte`, scanning contiguous UTF-8 storage directly when available.
    static func contains(_ byte: UInt8, in text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? text.utf8.contains(byte)
    }

    /// Replaces every `+` with a space, as JLRoutes does when `decodePlusSymbols` is on.
    static func plusToSpace(_ text: String) -> String {
        guard contains(UInt8(ascii: "+"), in: text) else { return text }
        return String(decoding: text.utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
