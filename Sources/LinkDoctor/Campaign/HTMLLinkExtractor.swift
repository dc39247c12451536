/// Reads the links of an HTML email as a browser reads them: the `href` of every `<a>` and `<area>` element.
///
/// The reading follows the WHATWG HTML standard wherever it decides which `href` values exist and what they are:
/// - the tokenizer's states for tags (names and attribute names in any case, values double-quoted, single-quoted or
///   unquoted, the first of repeated attributes wins, a tag cut off by the end of the document does not exist),
///   comments (`<!-->` and `<!--->` are whole comments, `--!>` ends one; `<!x>`, `<?x>` and `</ x>` are bogus
///   comments up to the next `>`), and the elements whose content is text: `title` and `textarea` (RCDATA),
///   `style`, `xmp`, `iframe`, `noembed` and `noframes` (RAWTEXT), `script` (script data, with its escaped states)
///   and `plaintext`; `noscript` content is markup, as in a mail client, which runs no script;
/// - SVG and MathML content as the tree builder switches to it (an SVG `<a>` is a link too), and `<template>`
///   content, which is never shown;
/// - character references in values: every named reference of the standard (2 231 names, longest match; without
///   `;` only the legacy names such as `&amp` or `&uuml`, and not before `=` or a letter or digit, so `?a=1&copy=2`
///   keeps its key), numeric ones with the standard's replacements (`&#0;`, surrogates and values past U+10FFFF
///   give U+FFFD, `&#128;` to `&#159;` the Windows-1252 characters);
/// - line breaks: CR LF and CR are LF before anything is read; then each value as the URL standard strips it:
///   leading and trailing C0 controls and spaces removed, and ASCII tab and newline removed anywhere.
///
/// `<base href>` is not applied: Gmail, Outlook.com and most webmail drop it, so a relative link stays relative for
/// many readers, and ``LinkDoctor/checkCampaign(_:)`` reports it as `link.relative`.
///
/// Reading is linear in the document's length, in time and memory, and nothing recurses.
///
/// `hrefs(in: #"<a href="https://x.example/?a=1&amp;b=2">"#)` is `["https://x.example/?a=1&b=2"]`.
package enum HTMLLinkExtractor {
    /// The `href` values of `<a>` and `<area>` elements, decoded, in document order (duplicates kept): the links
    /// a browser, and so a phone's mail app, shows.
    ///
    /// Links that only Outlook on Windows renders (inside `<!--[if mso]> ... <![endif]-->`) are comments to a
    /// browser and are not among them; ``LinkDoctor/checkCampaign(_:)`` lists them apart, with the kind
    /// ``CampaignLink/Kind-swift.enum/outlookOnly``.
    ///
    /// - Parameter html: The document.
    /// - Returns: The links as a browser reads them; an element without `href` gives nothing.
    package static func hrefs(in html: String) -> [String] {
        links(in: html).filter { !$0.outlookOnly }.map(\.url)
    }

    /// A link of an email: its URL as read, and whether only Outlook on Windows renders it.
    struct Link: Hashable {
        var url: String
        var outlookOnly: Bool
    }

    /// Every link of the document in order, those a browser shows and those only Outlook renders (see
    /// ``OutlookConditionalComment``: inside `<!--[if mso]>`, the `href` of `<a>`, `<area>` and VML elements such as
    /// `<v:roundrect>`).
    static func links(in html: String) -> [Link] {
        let bytes = normalizedNewlines(html)
        var tokenizer = HTMLTokenizer(bytes, range: bytes.indices)
        tokenizer.run()
        var value: [UInt8] = []
        return tokenizer.links.map { link in
            value.removeAll(keepingCapacity: true)
            HTMLEntities.decode(bytes, link.value, into: &value)
            return Link(url: cleanURL(value), outlookOnly: link.outlookOnly)
        }
    }

    /// The document's UTF-8 bytes with CR LF and lone CR turned into LF, as the standard's input stream does.
    static func normalizedNewlines(_ html: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(html.utf8.count)
        var afterCR = false
        for byte in html.utf8 {
            if byte == 0x0D {
                out.append(0x0A)
                afterCR = true
                continue
            }
            if !(afterCR && byte == 0x0A) { out.append(byte) }
            afterCR = false
        }
        return out
    }

    /// What the URL parser strips: leading and trailing C0 controls and spaces, and every tab and newline.
    static func cleanURL(_ text: String) -> String {
        cleanURL(Array(text.utf8))
    }

    /// ``cleanURL(_:)-(String)`` on UTF-8 bytes: every byte removed is ASCII, never part of a multi-byte scalar.
    static func cleanURL(_ bytes: [UInt8]) -> String {
        var trimmed = bytes[...]
        while let first = trimmed.first, first <= 0x20 { trimmed.removeFirst() }
        while let last = trimmed.last, last <= 0x20 { trimmed.removeLast() }
        var out: [UInt8] = []
        out.reserveCapacity(trimmed.count)
        for byte in trimmed where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
