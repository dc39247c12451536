/// The byte-level readings of a link's text that the one-pass readers share (``PlainLinkText`` for incoming links,
/// ``PlainAnswerLink`` for the links of an answer): each answers only for the plain shape and leaves anything else to
/// `URL`.
enum LinkTextScanner {
    /// Where the scheme ends (the index of its `:`), when `bytes` start with `ALPHA *( ALPHA / DIGIT / "+" / "-" /
    /// "." ) ":"`; `nil` otherwise.
    static func schemeEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        while i < bytes.count, bytes[i] != UInt8(ascii: ":") {
            let b = bytes[i]
            let isLetter = (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
            let isOther = (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "+")
                || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
            guard isLetter || (i > 0 && isOther) else { return nil }
            i += 1
        }
        return i > 0 && i < bytes.count ? i : nil
    }

    /// Where a plain host starting at `start` ends (at `/`, `?`, `#` or the end), when it is not empty, holds only
    /// letters, digits, `-`, `_` and `.`, and has no `xn--` label; `nil` otherwise (a user, port, IP literal, percent
    /// escape or non-ASCII byte is for `URL`'s accessors, and an `xn--` label may be Foundation's own rewriting of an
    /// internationalised host, which `host` reports percent-encoded instead).
    static func plainHostEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        loop: while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                break loop
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                i += 1
            default:
                return nil
            }
        }
        guard i > start else { return nil }
        var label = start
        while label + 4 <= i {
            if bytes[label] | 0x20 == UInt8(ascii: "x"), bytes[label + 1] | 0x20 == UInt8(ascii: "n"),
               bytes[label + 2] == UInt8(ascii: "-"), bytes[label + 3] == UInt8(ascii: "-") { return nil }
            while label < i, bytes[label] != UInt8(ascii: ".") { label += 1 }
            label += 1
        }
        return i
    }

    /// ASCII lower-casing of one byte.
    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
