/// A byte-level check that lets ``LinkRouter/route(_:parameters:)-(String,_)`` skip `URL(string:)`, which costs more than the
/// rest of a lookup, for text that certainly parses; the `URL` is made only when a handler reads
/// ``RouteParameters/url`` or an unmatched-URL handler runs. It only decides whether to call Foundation: the URL is
/// split by ``RouteRequest`` either way.
///
/// It accepts a strict subset of RFC 3986 absolute URIs, ASCII only:
/// `scheme ":" ["//" authority] rest`, where the scheme is `ALPHA *(ALPHA / DIGIT / "+" / "-" / ".")`, the
/// authority holds unreserved characters, sub-delimiters and `%HH` escapes only (no user info, no port, no IPv6
/// literal), and the rest holds path, query and fragment characters (`pchar`, `/`, `?`) and escapes, with at most
/// one `#`. Every `%` must start a valid escape. Anything else (relative references, spaces, non-ASCII, `[`,
/// malformed escapes) answers `false` and goes through `URL(string:)`, so the outcome for text that is not a URL
/// does not depend on this check. `RouteURLTextTests` checks "accepted implies `URL(string:)` succeeds" over
/// generated strings.
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
        return byteClasses.withUnsafeBufferPointer { classes in
            if index + 1 < count, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
                index += 2
                while index < count {
                    let byteClass = classes[Int(bytes[index])]
                    if byteClass == Class.authority { index += 1; continue }
                    if byteClass == Class.escape {
                        guard isEscape(bytes, at: index) else { return false }
                        index += 3
                        continue
                    }
                    // `/`, `?` and `#` end the authority; anything else (`:`, `@`, `[`, ...) is not accepted in it.
                    guard byteClass == Class.delimiter || byteClass == Class.fragment else { return false }
                    break
                }
            }
            var seenFragment = false
            while index < count {
                let byteClass = classes[Int(bytes[index])]
                // One comparison for the usual byte: the three classes allowed after the authority are 1, 2 and 4.
                if byteClass & Class.allowedAfterAuthority != 0 {
                    index += 1
                    continue
                }
                if byteClass == Class.escape {
                    guard isEscape(bytes, at: index) else { return false }
                    index += 3
                    continue
                }
                guard byteClass == Class.fragment, !seenFragment else { return false }
                seenFragment = true
                index += 1
            }
            return true
        }
    }

    /// What a byte may be, by byte value.
    private enum Class {
        static let rejected: UInt8 = 0
        /// RFC 3986 `unreserved` and `sub-delims`: allowed everywhere.
        static let authority: UInt8 = 1
        /// `:` and `@`: allowed in a path, a query and a fragment, not (here) in an authority.
        static let rest: UInt8 = 2
        /// `/` and `?`: end the authority, allowed after it.
        static let delimiter: UInt8 = 4
        static let escape: UInt8 = 8
        /// `#`: ends the authority, starts the fragment, at most once.
        static let fragment: UInt8 = 16
        /// ``authority``, ``rest`` and ``delimiter`` as a mask.
        static let allowedAfterAuthority: UInt8 = 1 | 2 | 4
    }

    /// ``Class`` of every byte value: one table load per byte.
    private static let byteClasses: [UInt8] = {
        var table = [UInt8](repeating: Class.rejected, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=".utf8 {
            table[Int(byte)] = Class.authority
        }
        table[Int(UInt8(ascii: ":"))] = Class.rest
        table[Int(UInt8(ascii: "@"))] = Class.rest
        table[Int(UInt8(ascii: "%"))] = Class.escape
        table[Int(UInt8(ascii: "/"))] = Class.delimiter
        table[Int(UInt8(ascii: "?"))] = Class.delimiter
        table[Int(UInt8(ascii: "#"))] = Class.fragment
        return table
    }()

    /// `text` with every byte but the unreserved ones (`A-Z a-z 0-9 - . _ ~`) written `%XX`: safe in a path
    /// component, a query name and a query value alike.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isAlpha(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~") {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func isAlpha(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// `ALPHA / DIGIT / "+" / "-" / "."`, what RFC 3986 allows after a scheme's first letter.
    static func isSchemeByte(_ byte: UInt8) -> Bool {
        isAlpha(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    private static func isEscape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        index + 2 < bytes.count && isHex(bytes[index + 1]) && isHex(bytes[index + 2])
    }
}
