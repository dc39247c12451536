import Foundation

/// The screening of an answer's link on its text alone, for the shape campaign links have: ASCII, a scheme, an
/// optional plain host, and a path, query and fragment of characters RFC 3986 allows unescaped.
///
/// It answers only when the link is safe and `URL(string:)` would keep its text exactly; for anything else (a user,
/// port or IP literal, a character `URL` would escape, an unsafe or missing scheme, a web link without a host) it
/// gives `nil` and the caller parses a `URL` and screens that, so the verdicts and messages are the same by
/// construction (`PlainAnswerLinkTests` compares both ways on generated links).
enum PlainAnswerLink {
    /// What a safe, plain link may be used as.
    enum Kind: Equatable {
        /// `http` or `https` with a host: a web link, and a deep link too.
        case web
        /// Any other safe scheme: a deep link only.
        case deepLinkOnly
    }

    /// The kind of `text`, when it is plain and safe; `nil` when the `URL` must decide.
    static func screen(_ text: String) -> Kind? {
        text.utf8.withContiguousStorageIfAvailable { screen($0) } ?? nil
    }

    private static func screen(_ bytes: UnsafeBufferPointer<UInt8>) -> Kind? {
        let count = bytes.count
        guard let schemeEnd = LinkTextScanner.schemeEnd(bytes) else { return nil }
        let scheme = UnsafeBufferPointer(rebasing: bytes[0..<schemeEnd])
        if unsafeSchemes.contains(where: { equalsIgnoringCase(scheme, $0) }) { return nil }
        let isWebScheme = equalsIgnoringCase(scheme, https) || equalsIgnoringCase(scheme, http)
        var i = schemeEnd + 1
        // An authority, when "//" follows: a plain host only.
        var hasHost = false
        if count - i >= 2, bytes[i] == UInt8(ascii: "/"), bytes[i + 1] == UInt8(ascii: "/") {
            guard let hostEnd = LinkTextScanner.plainHostEnd(bytes, from: i + 2) else { return nil }
            i = hostEnd
            hasHost = true
        }
        if isWebScheme, !hasHost { return nil }
        // Path and query, then at most one fragment: unreserved, sub-delims, ":", "@", "/", "?", and "%" with two
        // hex digits. Anything else `URL(string:)` would escape or refuse.
        var seenFragment = false
        while i < count {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                guard i + 2 < count, isHexDigit(bytes[i + 1]), isHexDigit(bytes[i + 2]) else { return nil }
                i += 3
                continue
            }
            if b == UInt8(ascii: "#") {
                guard !seenFragment else { return nil }
                seenFragment = true
            } else if !isPathCharacter(b) {
                return nil
            }
            i += 1
        }
        return isWebScheme ? .web : .deepLinkOnly
    }

    /// Unreserved, sub-delims, ":", "@", "/" and "?".
    private static func isPathCharacter(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            true
        default:
            false
        }
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || ((b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "f"))
    }

    /// ``LinkSafety/unsafeSchemes`` and the web schemes as bytes, to compare a scheme in place.
    private static let unsafeSchemes: [[UInt8]] = LinkSafety.unsafeSchemes.map { Array($0.utf8) }
    private static let https = Array("https".utf8)
    private static let http = Array("http".utf8)

    /// Whether `bytes` (a scheme: letters, digits, "+", "-", ".") spell the lower-case `scheme`, in any case.
    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ scheme: [UInt8]) -> Bool {
        guard bytes.count == scheme.count else { return false }
        for i in 0..<bytes.count where bytes[i] | 0x20 != scheme[i] { return false }
        return true
    }
}
