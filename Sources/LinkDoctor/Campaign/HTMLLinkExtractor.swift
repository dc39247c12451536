/// Reads the links of an HTML email as a browser would: the `href` of every `<a>` and `<area>` element.
///
/// A small tokenizer of its own (no dependency), enough for email HTML:
/// - tag and attribute names are case-insensitive; values may be double-quoted, single-quoted or unquoted;
///   the first of repeated attributes wins, as in browsers;
/// - character references are decoded as a browser decodes them in an attribute: named ones
///   (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;` and a few more), decimal (`&#38;`) and hex
///   (`&#x26;`); a named reference without `;` is decoded only for the legacy names and never when an
///   alphanumeric or `=` follows (so `?a=1&copy=2` stays as written);
/// - comments, `<!DOCTYPE>`, and the contents of `<script>` and `<style>` are skipped;
/// - leading and trailing blanks, and tabs and newlines inside the value, are removed, as the URL parser does.
///
/// ```swift
/// HTMLLinkExtractor.hrefs(in: #"<a href="https://x.example/?a=1&amp;b=2">"#)  // ["https://x.example/?a=1&b=2"]
/// ```
public enum HTMLLinkExtractor {
    /// The `href` values of `<a>` and `<area>` elements, decoded, in document order (duplicates kept).
    ///
    /// - Parameter html: The document.
    /// - Returns: The links as a browser reads them; an element without `href` gives nothing.
    public static func hrefs(in html: String) -> [String] {
        var tokenizer = Tokenizer(Array(html.utf8))
        var links: [String] = []
        while let tag = tokenizer.nextStartTag() {
            guard tag.name == "a" || tag.name == "area", let raw = tag.attributes["href"] else { continue }
            links.append(cleanURL(HTMLEntities.decode(raw)))
        }
        return links
    }

    /// What the URL parser strips: leading and trailing C0 controls and spaces, and every tab and newline.
    static func cleanURL(_ text: String) -> String {
        // On UTF-8 bytes into one buffer (linear): every byte removed is ASCII, never part of a multi-byte scalar.
        var bytes = text.utf8[...]
        while let first = bytes.first, first <= 0x20 { bytes.removeFirst() }
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes where byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\r") {
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A start tag: its lower-cased name and its attributes, values still encoded.
    struct StartTag {
        var name: String
        var attributes: [String: String]
    }

    /// Walks the bytes of a document, yielding start tags and skipping everything else.
    struct Tokenizer {
        private let bytes: [UInt8]
        private var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func nextStartTag() -> StartTag? {
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "<") else {
                    index += 1
                    continue
                }
                index += 1
                if hasPrefix("!--") {
                    index += 3
                    skip(past: Array("-->".utf8), caseInsensitive: false)
                } else if hasPrefix("!") || hasPrefix("?") || hasPrefix("/") {
                    skip(past: [UInt8(ascii: ">")], caseInsensitive: false)
                } else if index < bytes.count, Self.isLetter(bytes[index]) {
                    let tag = readTag()
                    if tag.name == "script" || tag.name == "style" {
                        skip(past: Array("</\(tag.name)".utf8), caseInsensitive: true)
                        skip(past: [UInt8(ascii: ">")], caseInsensitive: false)
                    }
                    return tag
                }
                // Anything else after `<` is text, as in browsers.
            }
            return nil
        }

        private func hasPrefix(_ text: String) -> Bool {
            let prefix = Array(text.utf8)
            guard index + prefix.count <= bytes.count else { return false }
            return bytes[index..<(index + prefix.count)].elementsEqual(prefix)
        }

        /// Moves past the next occurrence of `marker`, or to the end.
        private mutating func skip(past marker: [UInt8], caseInsensitive: Bool) {
            while index < bytes.count {
                if index + marker.count <= bytes.count,
                   zip(bytes[index..<(index + marker.count)], marker).allSatisfy({ lhs, rhs in
                       caseInsensitive ? Self.lower(lhs) == Self.lower(rhs) : lhs == rhs
                   }) {
                    index += marker.count
                    return
                }
                index += 1
            }
        }

        private mutating func readTag() -> StartTag {
            let name = readName { $0 == UInt8(ascii: "/") }
            var attributes: [String: String] = [:]
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ">") {
                    index += 1
                    break
                }
                if Self.isSpace(byte) || byte == UInt8(ascii: "/") {
                    index += 1
                    continue
                }
                let attribute = readName { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "/") }
                skipSpaces()
                var value = ""
                if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                    index += 1
                    skipSpaces()
                    value = readValue()
                }
                if attributes[attribute] == nil { attributes[attribute] = value }
            }
            return StartTag(name: name, attributes: attributes)
        }

        /// Reads a tag or attribute name up to a blank, `>` or a byte `stop` accepts; lower-cased.
        private mutating func readName(stop: (UInt8) -> Bool) -> String {
            let start = index
            // A name takes at least one byte, so `=` or `/` at its start cannot loop forever.
            index += 1
            while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"),
                  !stop(bytes[index]) {
                index += 1
            }
            return String(decoding: bytes[start..<min(index, bytes.count)].map(Self.lower), as: UTF8.self)
        }

        private mutating func readValue() -> String {
            guard index < bytes.count else { return "" }
            let quote = bytes[index]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                index += 1
                let start = index
                while index < bytes.count, bytes[index] != quote { index += 1 }
                let value = String(decoding: bytes[start..<index], as: UTF8.self)
                index = min(index + 1, bytes.count)
                return value
            }
            let start = index
            while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        private mutating func skipSpaces() {
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        }

        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }

        static func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }

        static func lower(_ byte: UInt8) -> UInt8 {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        }
    }
}
