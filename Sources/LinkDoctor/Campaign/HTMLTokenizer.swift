/// Walks an HTML document as the WHATWG HTML standard's tokenizer does, as far as it decides which links exist:
/// the `href` of `<a>` and `<area>` start tags (and of SVG `<a>`), and, inside Outlook's conditional comments, of
/// VML elements too.
///
/// What it follows, state by state of the standard:
/// - tags: names and attribute names case-insensitive (ASCII), values double-quoted, single-quoted or unquoted,
///   the first of repeated attributes wins, attributes of end tags read and dropped, a tag cut by the end of the
///   document dropped;
/// - comments in every comment state (`<!-->`, `<!--->`, `--!>` ends one, `<!-- -- -->` does not end early), bogus
///   comments (`<!x>`, `<?x>`, `</ x>`, and `<![CDATA[` outside SVG and MathML) up to the first `>`, `<!DOCTYPE`
///   up to the first `>`;
/// - the tree builder's switches of the tokenizer: RCDATA (`title`, `textarea`), RAWTEXT (`style`, `xmp`, `iframe`,
///   `noembed`, `noframes`), script data with its escaped and double-escaped states (`script`), PLAINTEXT
///   (`plaintext`), each up to its own end tag; `noscript` holds markup, as in a mail client (scripting off);
/// - foreign content: inside `<svg>` and `<math>` those elements hold markup, `<![CDATA[ ]]>` is text, the HTML
///   elements that break out of foreign content end it, and the integration points (`foreignObject`, `desc`,
///   `title`; `mi`, `mo`, `mn`, `ms`, `mtext`, `annotation-xml` for HTML) hold HTML. HTML elements inside an
///   integration point are not tracked: an end tag that names no open SVG or MathML element ends the foreign
///   elements above the nearest integration point, as it does when it closes the HTML element that holds them;
/// - `<template>` content is not part of the document, so its links are not listed.
///
/// Input has CR LF and CR already turned into LF (``HTMLLinkExtractor``); U+0000 becomes U+FFFD in names and
/// values. Every loop moves forward, every byte is looked at a bounded number of times, and memory is the links
/// plus one stack entry per open SVG or MathML element: time and memory are linear in the document, without
/// recursion. The content of an Outlook conditional comment is read by a second tokenizer over that part of the
/// document, which does not look into conditional comments itself: one level, never deeper.
struct HTMLTokenizer {
    /// A link found: the `href` as written (raw bytes of the value) and whether only Outlook renders it.
    struct RawLink {
        var value: Range<Int>
        var outlookOnly: Bool
    }

    private let bytes: [UInt8]
    private let end: Int
    private var index: Int
    /// Whether this tokenizer reads the content of an Outlook conditional comment.
    private let outlookOnly: Bool
    private var foreign = ForeignContent()
    /// Open `<template>` elements (in HTML): their content is a fragment apart, never shown.
    private var templateDepth = 0
    /// How many HTML elements of each name are open outside foreign content (implied end tags aside): whether an
    /// end tag met in foreign content closes an element that holds it.
    private var openHTML: [[UInt8]: Int] = [:]
    private(set) var links: [RawLink] = []

    /// A tokenizer over `bytes[range]`; `outlookOnly` for the content of an Outlook conditional comment.
    init(_ bytes: [UInt8], range: Range<Int>, outlookOnly: Bool = false) {
        self.bytes = bytes
        self.end = range.upperBound
        self.index = range.lowerBound
        self.outlookOnly = outlookOnly
    }

    /// Reads the document to its end.
    mutating func run() {
        while index < end {
            guard let open = bytes[index..<end].firstIndex(of: UInt8(ascii: "<")) else { return }
            index = open + 1
            guard index < end else { return }
            let byte = bytes[index]
            if byte == UInt8(ascii: "!") {
                markupDeclaration()
            } else if byte == UInt8(ascii: "/") {
                endTagOpen()
            } else if byte == UInt8(ascii: "?") {
                skipBogusComment()
            } else if Self.isASCIIAlpha(byte) {
                guard let tag = readTag() else { return }
                startTag(tag)
            }
            // Anything else after `<` is text, and is read again as such.
        }
    }

    // MARK: - Markup declarations and comments

    /// After `<!`: a comment, a DOCTYPE, a CDATA section (in foreign content) or a bogus comment.
    private mutating func markupDeclaration() {
        let start = index + 1
        if has("--", at: start) {
            let comment = readComment(from: start + 2)
            index = comment.next
            if !outlookOnly, let content = OutlookConditionalComment.outlookContent(bytes, data: comment.data) {
                var outlook = HTMLTokenizer(bytes, range: content, outlookOnly: true)
                outlook.run()
                links += outlook.links
            }
        } else if has("doctype", at: start, caseInsensitive: true) {
            // Every DOCTYPE state ends the token at the first `>`, quoted identifiers included.
            index = start
            skipBogusComment()
        } else if !foreign.isEmpty, has("[CDATA[", at: start) {
            index = start + 7
            index = find("]]>").map { $0 + 3 } ?? end
        } else {
            index = start
            skipBogusComment()
        }
    }

    /// A comment whose data starts at `start` (after `<!--`): its data, and where the document goes on.
    ///
    /// Past the comment start states (`<!-->`, `<!--->`), the comment state machine ends a comment at the first
    /// `-->` or `--!>`: any `--` takes it to the comment end state, from which `>` or `!>` ends it, and nothing else
    /// it meets (`<!--` inside, more dashes, `--!` then another character) ends it sooner or later than that.
    private func readComment(from start: Int) -> (data: Range<Int>, next: Int) {
        if start < end, bytes[start] == UInt8(ascii: ">") { return (start..<start, start + 1) }
        if start + 1 < end, bytes[start] == UInt8(ascii: "-"), bytes[start + 1] == UInt8(ascii: ">") {
            return (start..<start, start + 2)
        }
        var position = start
        while position + 2 < end {
            if bytes[position] == UInt8(ascii: "-"), bytes[position + 1] == UInt8(ascii: "-") {
                if bytes[position + 2] == UInt8(ascii: ">") { return (start..<position, position + 3) }
                if bytes[position + 2] == UInt8(ascii: "!"), position + 3 < end, bytes[position + 3] == UInt8(ascii: ">") {
                    return (start..<position, position + 4)
                }
            }
            position += 1
        }
        return (start..<end, end)
    }

    /// A bogus comment (or a DOCTYPE) from `index`: it ends after the first `>`, or with the document.
    private mutating func skipBogusComment() {
        index = find(">").map { $0 + 1 } ?? end
    }

    // MARK: - Tags

    /// After `</`: an end tag, nothing (`</>`), a bogus comment, or text at the end of the document.
    private mutating func endTagOpen() {
        index += 1
        guard index < end else { return }
        let byte = bytes[index]
        if Self.isASCIIAlpha(byte) {
            guard let tag = readTag() else { return }
            endTag(tag)
        } else if byte == UInt8(ascii: ">") {
            index += 1
        } else {
            skipBogusComment()
        }
    }

    /// A start or end tag whose name starts at `index`, read to its `>`; `nil` when the document ends first (the
    /// standard drops such a tag), with `index` at the end.
    private mutating func readTag() -> Tag? {
        var tag = Tag(name: index..<index)
        while index < end, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: ">") {
            index += 1
        }
        tag.name = tag.name.lowerBound..<index
        // The before-attribute-name state and its successors, one attribute per turn.
        while true {
            while index < end, Self.isSpace(bytes[index]) { index += 1 }
            guard index < end else { return nil }
            switch bytes[index] {
            case UInt8(ascii: ">"):
                index += 1
                return tag
            case UInt8(ascii: "/"):
                // The self-closing start tag state: `/>` closes, any other `/` is dropped.
                index += 1
                guard index < end else { return nil }
                if bytes[index] == UInt8(ascii: ">") {
                    tag.selfClosing = true
                    index += 1
                    return tag
                }
            default:
                guard readAttribute(into: &tag) else { return nil }
            }
        }
    }

    /// One attribute from `index` (its name's first byte, which may be `=`), with its value if it has one; `false`
    /// when the document ends inside it.
    private mutating func readAttribute(into tag: inout Tag) -> Bool {
        let nameStart = index
        index += 1
        while index < end, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: ">"),
              bytes[index] != UInt8(ascii: "=") {
            index += 1
        }
        let name = nameStart..<index
        while index < end, Self.isSpace(bytes[index]) { index += 1 }
        guard index < end else { return false }
        guard bytes[index] == UInt8(ascii: "=") else {
            tag.set(name, value: index..<index, in: bytes)
            return true
        }
        index += 1
        while index < end, Self.isSpace(bytes[index]) { index += 1 }
        guard index < end else { return false }
        let quote = bytes[index]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let valueStart = index + 1
            guard let close = bytes[valueStart..<end].firstIndex(of: quote) else { return false }
            tag.set(name, value: valueStart..<close, in: bytes)
            // After a quoted value, anything but a blank, `/` or `>` starts the next attribute.
            index = close + 1
        } else if quote == UInt8(ascii: ">") {
            // A missing value: the attribute is empty, and `>` ends the tag.
            tag.set(name, value: index..<index, in: bytes)
        } else {
            let valueStart = index
            while index < end, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
            guard index < end else { return false }
            tag.set(name, value: valueStart..<index, in: bytes)
        }
        return true
    }

    // MARK: - Tree construction, as far as it switches the tokenizer

    private mutating func startTag(_ tag: Tag) {
        if !foreign.takesAsHTML(tag, in: bytes) {
            if !tag.breaksOutOfForeignContent(in: bytes) {
                if foreign.isSVG, tag.nameIs("a", in: bytes), let href = tag.href ?? tag.xlinkHref {
                    addLink(href)
                }
                if !tag.selfClosing { foreign.push(tag, in: bytes, from: .foreign) }
                return
            }
            foreign.popToIntegrationPoint()
        }
        let name = tag.name
        if foreign.isEmpty, !tag.isVoid(in: bytes), !tag.nameIs("svg", in: bytes), !tag.nameIs("math", in: bytes) {
            openHTML[ForeignContent.normalized(bytes[name]), default: 0] += 1
        }
        if tag.nameIs("a", in: bytes) || tag.nameIs("area", in: bytes)
            || (outlookOnly && name.count > 2 && Self.lower(bytes[name.lowerBound]) == UInt8(ascii: "v")
                && bytes[name.lowerBound + 1] == UInt8(ascii: ":")) {
            if let href = tag.href { addLink(href) }
        } else if tag.nameIs("title", in: bytes) || tag.nameIs("textarea", in: bytes) || tag.nameIs("style", in: bytes)
            || tag.nameIs("xmp", in: bytes) || tag.nameIs("iframe", in: bytes) || tag.nameIs("noembed", in: bytes)
            || tag.nameIs("noframes", in: bytes) {
            skipRawText(until: name)
        } else if tag.nameIs("script", in: bytes) {
            skipScriptData()
        } else if tag.nameIs("plaintext", in: bytes) {
            index = end
        } else if tag.nameIs("svg", in: bytes) || tag.nameIs("math", in: bytes) {
            if !tag.selfClosing { foreign.push(tag, in: bytes, from: .html) }
        } else if tag.nameIs("template", in: bytes), foreign.isEmpty {
            templateDepth += 1
        }
    }

    /// An end tag. In foreign content: the innermost open SVG or MathML element of its name closes, with those
    /// above it; `</br>` and `</p>` end the foreign elements above the nearest integration point; any other end tag
    /// is an HTML one, which closes the HTML element of its name that holds the foreign content (popping it all)
    /// when one is open and no integration point stands between, and is dropped otherwise, as the standard's scope
    /// rules have it.
    private mutating func endTag(_ tag: Tag) {
        if !foreign.isEmpty {
            let breakout = tag.nameIs("br", in: bytes) || tag.nameIs("p", in: bytes)
            if breakout {
                foreign.popToIntegrationPoint()
                guard foreign.isEmpty else { return }
            } else if foreign.popThrough(tag, in: bytes) {
                return
            } else {
                guard !foreign.hasIntegrationPoint, openHTML[ForeignContent.normalized(bytes[tag.name]), default: 0] > 0
                else { return }
                foreign.popToIntegrationPoint()
            }
        }
        let name = ForeignContent.normalized(bytes[tag.name])
        if let open = openHTML[name], open > 0 { openHTML[name] = open - 1 }
        if tag.nameIs("template", in: bytes), templateDepth > 0 { templateDepth -= 1 }
    }

    private mutating func addLink(_ value: Range<Int>) {
        if templateDepth == 0 { links.append(RawLink(value: value, outlookOnly: outlookOnly)) }
    }

    // MARK: - Text elements

    /// RCDATA and RAWTEXT: text up to the element's own end tag (`</name` then a blank, `/` or `>`), which is read
    /// as a tag; text to the end of the document without one.
    private mutating func skipRawText(until name: Range<Int>) {
        while let open = find("</") {
            index = open + 2
            if endTagStarts(named: name) {
                if let tag = readTag() { endTag(tag) }
                return
            }
        }
        index = end
    }

    /// Script data: text up to `</script`, except inside `<!--` where a `<script` switches to the double-escaped
    /// states, in which `</script` only returns to the escaped ones; `-->` leaves both.
    private mutating func skipScriptData() {
        enum State { case data, escaped, doubleEscaped }
        var state = State.data
        // Consecutive `-` just read in an escaped state, up to two: `>` after two returns to script data.
        var dashes = 0
        let script = Array("script".utf8)
        while index < end {
            let byte = bytes[index]
            switch state {
            case .data:
                if byte == UInt8(ascii: "<") {
                    if has("</", at: index), endTagStarts(named: script, at: index + 2) {
                        index += 2
                        if let tag = readTag() { endTag(tag) }
                        return
                    }
                    if has("<!--", at: index) {
                        state = .escaped
                        dashes = 2
                        index += 4
                        continue
                    }
                }
                index += 1
            case .escaped, .doubleEscaped:
                if byte == UInt8(ascii: "-") {
                    dashes = min(dashes + 1, 2)
                    index += 1
                    continue
                }
                if byte == UInt8(ascii: ">"), dashes == 2 {
                    state = .data
                    dashes = 0
                    index += 1
                    continue
                }
                dashes = 0
                guard byte == UInt8(ascii: "<") else {
                    index += 1
                    continue
                }
                if state == .escaped, has("</", at: index), endTagStarts(named: script, at: index + 2) {
                    index += 2
                    if let tag = readTag() { endTag(tag) }
                    return
                }
                // `<script` (escaped) or `</script` (double escaped) then a blank, `/` or `>` switches between the
                // two; the letters are text either way, and the terminator is taken with them.
                let letters = state == .escaped ? index + 1 : index + 2
                guard state == .escaped || has("</", at: index), letters < end, Self.isASCIIAlpha(bytes[letters]) else {
                    index += 1
                    continue
                }
                var after = letters
                while after < end, Self.isASCIIAlpha(bytes[after]) { after += 1 }
                index = after
                if after < end, Self.isTerminator(bytes[after]), Self.equalsLowercased(bytes[letters..<after], script) {
                    state = state == .escaped ? .doubleEscaped : .escaped
                    index = after + 1
                }
            }
        }
    }

    /// Whether `bytes[at...]` is `name`'s letters (any case) followed by a blank, `/` or `>`: the standard's
    /// "appropriate end tag" after `</`.
    private func endTagStarts(named name: Range<Int>) -> Bool {
        endTagStarts(named: bytes[name].map(Self.lower), at: index)
    }

    private func endTagStarts(named name: [UInt8], at start: Int) -> Bool {
        let after = start + name.count
        guard after < end, Self.isTerminator(bytes[after]) else { return false }
        return Self.equalsLowercased(bytes[start..<after], name)
    }

    // MARK: - Bytes

    private func has(_ text: StaticString, at start: Int, caseInsensitive: Bool = false) -> Bool {
        let count = text.utf8CodeUnitCount
        guard start + count <= end else { return false }
        for offset in 0..<count {
            let byte = caseInsensitive ? Self.lower(bytes[start + offset]) : bytes[start + offset]
            if byte != text.utf8Start[offset] { return false }
        }
        return true
    }

    /// Where `text` next occurs from `index`.
    private func find(_ text: StaticString) -> Int? {
        var position = index
        let first = text.utf8Start[0]
        while let candidate = bytes[position..<end].firstIndex(of: first) {
            if has(text, at: candidate) { return candidate }
            position = candidate + 1
        }
        return nil
    }

    static func equalsLowercased(_ slice: ArraySlice<UInt8>, _ lowercased: [UInt8]) -> Bool {
        slice.count == lowercased.count && zip(slice, lowercased).allSatisfy { lower($0) == $1 }
    }

    /// HTML's ASCII whitespace, without CR (already turned into LF).
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// What ends an end tag's name: a blank, `/` or `>`.
    static func isTerminator(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    static func isASCIIAlpha(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}

extension HTMLTokenizer {
    /// A tag as read: its name, whether it closes itself, and the first value of each attribute that matters.
    struct Tag {
        var name: Range<Int>
        var selfClosing = false
        var href: Range<Int>?
        var xlinkHref: Range<Int>?
        /// `annotation-xml`'s `encoding`, which makes it an HTML integration point.
        var encoding: Range<Int>?
        /// `color`, `face` or `size`: a `<font>` with one breaks out of foreign content.
        var hasFontAttribute = false

        /// Records an attribute; a repeated one is dropped (the first wins).
        mutating func set(_ attribute: Range<Int>, value: Range<Int>, in bytes: [UInt8]) {
            let name = bytes[attribute]
            if HTMLTokenizer.equalsLowercased(name, Self.hrefName) {
                if href == nil { href = value }
            } else if HTMLTokenizer.equalsLowercased(name, Self.xlinkHrefName) {
                if xlinkHref == nil { xlinkHref = value }
            } else if HTMLTokenizer.equalsLowercased(name, Self.encodingName) {
                if encoding == nil { encoding = value }
            } else if Self.fontAttributes.contains(where: { HTMLTokenizer.equalsLowercased(name, $0) }) {
                hasFontAttribute = true
            }
        }

        func nameIs(_ lowercased: StaticString, in bytes: [UInt8]) -> Bool {
            guard name.count == lowercased.utf8CodeUnitCount else { return false }
            for offset in 0..<name.count where HTMLTokenizer.lower(bytes[name.lowerBound + offset]) != lowercased.utf8Start[offset] {
                return false
            }
            return true
        }

        /// The standard's list of start tags that end foreign content (`<font>` only with `color`, `face` or `size`).
        func breaksOutOfForeignContent(in bytes: [UInt8]) -> Bool {
            guard name.count <= 10 else { return false }
            let lowered = String(decoding: bytes[name].map(HTMLTokenizer.lower), as: UTF8.self)
            return Self.breakouts.contains(lowered) || (lowered == "font" && hasFontAttribute)
        }

        /// Whether the element has no content and no end tag, so it never holds anything open.
        func isVoid(in bytes: [UInt8]) -> Bool {
            guard name.count <= 8 else { return false }
            return Self.voidElements.contains(String(decoding: bytes[name].map(HTMLTokenizer.lower), as: UTF8.self))
        }

        private static let voidElements: Set<String> = [
            "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img", "input",
            "keygen", "link", "meta", "param", "source", "track", "wbr",
        ]
        private static let hrefName = Array("href".utf8)
        private static let xlinkHrefName = Array("xlink:href".utf8)
        private static let encodingName = Array("encoding".utf8)
        private static let fontAttributes = ["color", "face", "size"].map { Array($0.utf8) }
        private static let breakouts: Set<String> = [
            "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1",
            "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p",
            "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var",
        ]
    }
}
