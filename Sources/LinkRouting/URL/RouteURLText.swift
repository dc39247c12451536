/// A byte-level check that lets ``LinkRouter/route(_:parameters:)-(String,_)`` skip `URL(string:)` (about 5k
/// instructions, more than the rest of routing) for text that certainly parses, building the `URL` only when a
/// handler reads ``RouteParameters/url`` or an unmatched-URL handler runs.
///
/// It accepts a strict subset of RFC 3986 absolute URIs, ASCII only:
/// `scheme ":" ["//" authority] rest`, where the scheme is `ALPHA *(ALPHA / DIGIT / "+" / "-" / ".")`, the
/// authority holds unreserved characters, sub-delimiters and `%HH` escapes only (no user info, no port, no IPv6
/// literal), and the rest holds path, query and fragment characters (`pchar`, `/`, `?`) and escapes, with at most
/// one `#`. Every `%` must start a valid escape. Anything else (relative references, spaces, non-ASCII, `[`,
/// malformed escapes) answers `false` and goes through `URL(string:)` as before, so the outcome for text that is
/// not a URL cannot change. `RouteURLTextTests` checks "accepted implies `URL(string:)` succeeds" over generated
/// strings.
enum RouteURLText {
    /// Whether `URL(string: text)` certainly returns a URL.
    static func certainlyParses(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(certainlyParses)
    }

    /// ``certainlyParses(_:)-(String)`` on the text's bytes.
    static func certainlyParses(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard count > 0, isAlpha(bytes[0]) else { return false }
        var index = 1
        while index < count, isSchemeByte(bytes[index]) { index += 1 }
        guard index < count, bytes[index] == UInt8(ascii: ":") else { return false }
        index += 1
        if index + 1 < count, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
            index += 2
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                if byte == UInt8(ascii: "%") {
                    guard isEscape(bytes, at: index) else { return false }
                    index += 3
                    continue
                }
                guard byte < 0x80, authorityBytes[Int(byte)] else { return false }
                index += 1
            }
        }
        var seenFragment = false
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard isEscape(bytes, at: index) else { return false }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                guard !seenFragment else { return false }
                seenFragment = true
            } else {
                guard byte < 0x80, restBytes[Int(byte)] else { return false }
            }
            index += 1
        }
        return true
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isAlpha(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    private static func isEscape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        index + 2 < bytes.count && isHex(bytes[index + 1]) && isHex(bytes[index + 2])
    }

    /// RFC 3986 `unreserved` and `sub-delims`.
    private static let authorityBytes: [Bool] = table("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=")

    /// `pchar` (without `%`), `/` and `?`: what a path, a query and a fragment may hold.
    private static let restBytes: [Bool] = table("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?")

    private static func table(_ allowed: String) -> [Bool] {
        var table = [Bool](repeating: false, count: 128)
        for byte in allowed.utf8 { table[Int(byte)] = true }
        return table
    }
}
