import Foundation
@testable import LinkDoctor
import Testing

struct HTMLLinkExtractorTests {
    @Test(arguments: [
        (#"<a href="https://x.example/?a=1&amp;b=2">"#, "https://x.example/?a=1&b=2"),
        (#"<a href='https://x.example/?a=1&#38;b=2&#x26;c=3'>"#, "https://x.example/?a=1&b=2&c=3"),
        (#"<A HREF=https://x.example/p?q=1>x</A>"#, "https://x.example/p?q=1"),
        (#"<a class="btn" href = "https://x.example/&lt;&gt;&quot;&apos;">"#, "https://x.example/<>\"'"),
        // A legacy name without `;` is decoded, except before `=` or an alphanumeric (query keys stay).
        (#"<a href="https://x.example/?a=1&copy=2&amp">"#, "https://x.example/?a=1&copy=2&"),
        (#"<a href="https://x.example/?x=&ampy">"#, "https://x.example/?x=&ampy"),
        (#"<a href="https://x.example/&unknown;">"#, "https://x.example/&unknown;"),
        // Only an ASCII alphanumeric blocks a legacy name; full-width digits are not a numeric reference.
        (#"<a href="https://x.example/?q=&ampé&#１;">"#, "https://x.example/?q=&é&#１;"),
        (#"<a href="  https://x.example/a&#10;b&#9;c  ">"#, "https://x.example/abc"),
        ("<a href=\"https://x.example/&#150;&#0;\">", "https://x.example/\u{2013}\u{FFFD}"),
        (#"<a href="https://x.example/&nbsp;">"#, "https://x.example/\u{A0}"),
        (#"<a href="1" href="2">"#, "1"),
    ])
    func hrefsAreDecodedAsABrowserReadsThem(_ html: String, _ expected: String) {
        #expect(HTMLLinkExtractor.hrefs(in: html) == [expected])
    }

    /// What TinyMCE's "named" encoding writes for German and French links, and upper-case `&AMP;`.
    @Test(arguments: [
        (#"<a href="https://www.example.de/touren/m&uuml;nchen-stra&szlig;e?ref=mail">"#,
         "https://www.example.de/touren/münchen-straße?ref=mail"),
        (#"<a href="https://www.example.fr/caf&eacute;/cr&egrave;me-br&ucirc;l&eacute;e">"#,
         "https://www.example.fr/café/crème-brûlée"),
        (#"<a href="https://news.example.com/pub/acc?_ri_=X0Gzc2X%3D1&AMP;_ei_=E2">"#,
         "https://news.example.com/pub/acc?_ri_=X0Gzc2X%3D1&_ei_=E2"),
        // The legacy names (the Latin-1 ones among them) also without `;`, unless a letter, digit or `=` follows.
        (#"<a href="https://x.example/m&uumlnchen/m&uuml-x/&szlig?a=&eacute=1">"#,
         "https://x.example/m&uumlnchen/mü-x/ß?a=&eacute=1"),
        // Other names need their `;`; the longest name wins (`&notin;`, not `&not`), and `&not` alone is legacy.
        (#"<a href="https://x.example/&hellip/&hellip;/&notin;/&not;/&not-x/&notit;">"#,
         "https://x.example/&hellip/\u{2026}/\u{2209}/\u{AC}/\u{AC}-x/&notit;"),
        // Names standing for two code points, and the longest name of the table.
        (#"<a href="https://x.example/&nGt;&CounterClockwiseContourIntegral;">"#,
         "https://x.example/\u{226B}\u{20D2}\u{2233}"),
    ])
    func everyNamedReferenceOfTheStandardIsDecoded(_ html: String, _ expected: String) {
        #expect(HTMLLinkExtractor.hrefs(in: html) == [expected])
    }

    @Test(arguments: [
        ("&#0;&#xD800;&#xDFFF;&#x110000;&#99999999999999999999;", "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"),
        // The C1 replacements, and the five C1 values the standard leaves as they are.
        ("&#x80;&#x9F;&#x81;&#x8D;&#x8F;&#x90;&#x9D;", "\u{20AC}\u{178}\u{81}\u{8D}\u{8F}\u{90}\u{9D}"),
        ("&#38&#x26&#X26;", "&&&"),
        ("&#;&#x;&#xG;&#a", "&#;&#x;&#xG;&#a"),
        ("&#x1F600;&#128512;", "\u{1F600}\u{1F600}"),
    ])
    func numericReferencesTakeTheStandardsReplacements(_ references: String, _ expected: String) {
        #expect(HTMLLinkExtractor.hrefs(in: #"<a href="x\#(references)y">"#) == ["x\(expected)y"])
    }

    /// The table the decoder carries, entry by entry, from the data file the same generator writes.
    @Test func eachOfThe2231NamedReferencesDecodesToTheStandardsCodePoints() throws {
        let table = try String(contentsOf: Fixtures.directory.appendingPathComponent("html-entities.tsv"), encoding: .utf8)
        let entries = table.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t")
            let scalars = fields[1].split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            return (name: String(fields[0]), text: String(String.UnicodeScalarView(scalars)))
        }
        #expect(entries.count == 2231)
        #expect(entries.filter { !$0.name.hasSuffix(";") }.count == 106)
        // `-` after the name: neither part of a name nor a blocker of a name without `;`.
        let html = entries.map { #"<a href="x&\#($0.name)-y">"# }.joined()
        let expected = entries.map { "x\($0.text.filter { $0 != "\t" && $0 != "\n" })-y" }
        let links = HTMLLinkExtractor.hrefs(in: html)
        #expect(links.count == entries.count)
        for (entry, (link, want)) in zip(entries, zip(links, expected)) where link != want {
            Issue.record("&\(entry.name) gave \(Array(link.unicodeScalars)), not \(Array(want.unicodeScalars))")
        }
    }

    @Test(arguments: [
        // `<!-->` and `<!--->` are whole comments; `--!>` ends one; `--` inside does not.
        ("<!--><a href=1>", ["1"]),
        ("<!---><a href=1>", ["1"]),
        ("<!----><a href=1>", ["1"]),
        ("<!-- <a href=hidden> --!><a href=1>", ["1"]),
        ("<!-- -- <a href=hidden> -- --><a href=1>", ["1"]),
        ("<!-- --! <a href=hidden> --!-><a href=hidden> --><a href=1>", ["1"]),
        ("<!-- <!-- <a href=hidden> --><a href=1>", ["1"]),
        ("<!-- never closed <a href=hidden>", []),
        // Bogus comments end at the first `>`.
        ("<!x <a href=hidden><a href=1>", ["1"]),
        (#"<?xml version="1.0"?><a href=1>"#, ["1"]),
        ("</ x><a href=1>", ["1"]),
        ("</><a href=1>", ["1"]),
        ("<![CDATA[ x ]]><a href=1>", ["1"]),
        ("<![CDATA[ > <a href=1> ]]>", ["1"]),
        // A DOCTYPE ends at the first `>`, even inside its quotes.
        (#"<!DOCTYPE html PUBLIC "x>"><a href=1>"#, ["1"]),
        // An end tag's attributes are read (a quoted `>` does not end it), then dropped.
        (#"</p title="> <a href=hidden>"><a href=1>"#, ["1"]),
        (#"</a href="https://end.example/">"#, []),
        // `<` not followed by a letter is text.
        ("< a href=x><3 <a href=1>", ["1"]),
    ])
    func commentsAndDeclarationsEndWhereABrowserEndsThem(_ html: String, _ expected: [String]) {
        #expect(HTMLLinkExtractor.hrefs(in: html) == expected)
    }

    @Test(arguments: [
        "<title>", "<textarea>", "<style>", "<xmp>", "<iframe>", "<noembed>", "<noframes>", "<script>",
        #"<TITLE class="t">"#, "<Script type=text/javascript>",
    ])
    func anElementWhoseContentIsTextHoldsNoLinks(_ start: String) {
        let name = start.dropFirst().prefix { $0.isLetter }.lowercased()
        let html = #"\#(start)<a href="https://hidden.example/"></\#(name)x><a href=hidden></\#(name.uppercased()) x=">">"#
            + #"<a href="https://shown.example/">"#
        #expect(HTMLLinkExtractor.hrefs(in: html) == ["https://shown.example/"])
    }

    @Test(arguments: [
        // In script data, `<!--` then `<script>` holds `</script>` back until `-->`.
        ("<script><!--<script></script><a href=hidden>--></script><a href=1>", ["1"]),
        ("<script><!-- </script><a href=1>", ["1"]),
        ("<script><!--<script>--></script><a href=1>", ["1"]),
        ("<script><!--<scripts></script><a href=1>", ["1"]),
        ("<script><!--<script></script --></script><a href=1>", ["1"]),
        // PLAINTEXT never ends; a text element never closed runs to the end of the document.
        ("<plaintext></plaintext><a href=hidden>", []),
        ("<textarea><a href=hidden>", []),
        // `noscript` is markup in a mail client, which runs no script.
        ("<noscript><a href=1></noscript>", ["1"]),
        ("<template><a href=hidden></template><a href=1>", ["1"]),
    ])
    func scriptsPlaintextNoscriptAndTemplatesAreReadAsABrowserReadsThem(_ html: String, _ expected: [String]) {
        #expect(HTMLLinkExtractor.hrefs(in: html) == expected)
    }

    @Test(arguments: [
        // In SVG, `style` and `title` hold markup, and `<a>` is an SVG link (`href`, else `xlink:href`).
        ("<svg><style><a href=1></a></style><a xlink:href=2></a></svg>", ["1", "2"]),
        ("<svg><![CDATA[ > <a href=hidden> ]]></svg><a href=1>", ["1"]),
        // An HTML element that breaks out of SVG ends it, so `style` is RAWTEXT again.
        ("<svg><g><p><style><a href=hidden></style><a href=1>", ["1"]),
        // An integration point holds HTML; MathML `a` is not a link.
        ("<svg><foreignObject><style><a href=hidden></style><a href=1></foreignObject></svg>", ["1"]),
        ("<math><mi><title><a href=hidden></title></mi><a href=not-a-link></math><a href=1>", ["1"]),
        ("<math><annotation-xml encoding=text/html><style><a href=hidden></style></annotation-xml></math>", []),
        // The end tag of the element holding the SVG ends it; a stray one does not.
        ("<div><svg><g></div><style><a href=hidden></style><a href=1>", ["1"]),
        ("<svg></span><title><a href=1></title></svg>", ["1"]),
        ("<svg/><title><a href=hidden></title><a href=1>", ["1"]),
    ])
    func svgAndMathMLContentIsReadAsForeignContent(_ html: String, _ expected: [String]) {
        #expect(HTMLLinkExtractor.hrefs(in: html) == expected)
    }

    @Test(arguments: [
        (#"<a href='https://x.example/"q"'>"#, #"https://x.example/"q""#),
        (#"<a href=https://x.example/'q'"r">"#, #"https://x.example/'q'"r""#),
        (#"<a HREF="1" href="2" Href="3">"#, "1"),
        ("<a href>", ""),
        ("<a href=>", ""),
        ("<a/href=1/>", "1/"),
        ("<a =x href=y>", "y"),
        ("<a href=\"https://x.example/a\r\nb\rc\">", "https://x.example/abc"),
        ("<a\rhref=1\r\n>", "1"),
        ("<a href=\"&#1; \u{0}https://x.example/\u{7}&#31; \">", "\u{FFFD}https://x.example/"),
        ("<a href=\"https://x.example/&#13;a&Tab;b&NewLine;c\">", "https://x.example/abc"),
    ])
    func attributesAreQuotedDuplicatedAndStrippedAsTheStandardsSay(_ html: String, _ expected: String) {
        #expect(HTMLLinkExtractor.hrefs(in: html) == [expected])
    }

    @Test func aTagCutOffByTheEndOfTheDocumentDoesNotExist() {
        for html in [#"<a href="x"#, "<a href=x", "<a href=x ", "<a href=\"x\" /", "<a href"] {
            #expect(HTMLLinkExtractor.hrefs(in: html).isEmpty, "\(html)")
        }
    }

    @Test func linksOnlyOutlookRendersAreNotAmongThePhonesLinks() {
        let html = """
            <!--[if mso]><v:roundrect href="https://outlook.example/"><a href="https://outlook2.example/">x</a>
            </v:roundrect><![endif]-->
            <!--[if !mso]><!--><a href="https://phone.example/">x</a><!--<![endif]-->
            <![if !mso]><a href="https://revealed.example/">x</a><![endif]>
            """
        #expect(HTMLLinkExtractor.hrefs(in: html) == ["https://phone.example/", "https://revealed.example/"])
    }

    @Test func commentsScriptsAndStylesAreSkipped() {
        let html = """
            <!DOCTYPE html><html><head><style>a[href="https://style.example/"] {}</style>
            <script>document.write('<a href="https://script.example/">')</script></head>
            <body><!-- <a href="https://comment.example/"> --><p>1 < 2</p>
            <a href="https://one.example/">one</a><area shape=rect href="https://two.example/"><a name="top">
            <SCRIPT type="text/javascript">var s = "</a><a href='https://script2.example/'>";</SCRIPT>
            <a href="https://three.example/">three</a></body></html>
            """
        #expect(HTMLLinkExtractor.hrefs(in: html) == ["https://one.example/", "https://two.example/", "https://three.example/"])
    }

    @Test func brokenMarkupNeverLoopsOrTraps() {
        for html in ["<", "<a", "<a href", "<a href=", "<a href=\"x", "<a =x href=y>", "<!--", "<script>", "</", "&", "<a/href=z>",
                     "<!--[if mso]>", "<!--[if (mso]><a href=x>", "<!--[if mso]><a href=x", "<svg><![CDATA[", "<math><mi><svg>",
                     "<script><!--<script>", "<!", "<!-", "<!d", "<?", "</a", "</a x='", "<a href='&#x"] {
            _ = HTMLLinkExtractor.hrefs(in: html)
        }
        #expect(HTMLLinkExtractor.hrefs(in: "<a =x href=y>") == ["y"])
    }

    /// Decoding character references costs the value's length: one step a byte read, plus the table's binary
    /// searches for a named reference, bounded by its longest name. Four times the references are four times the
    /// steps, and a page of `x&amp;` a few dozen steps a byte at most.
    @Test func decodingReferencesGrowsLinearly() {
        func decode(_ references: Int) -> (steps: Int, length: Int) {
            let value = Array(String(repeating: "x&amp;", count: references).utf8)
            var out: [UInt8] = []
            var steps = 0
            HTMLEntities.decode(value, value.indices, into: &out, steps: &steps)
            return (steps, out.count)
        }
        let small = decode(25_000), large = decode(100_000)
        #expect(small.length == 50_000 && large.length == 200_000)
        #expect(abs(large.steps - 4 * small.steps) <= 64, "\(small.steps) then \(large.steps) steps")
        #expect(large.steps <= 40 * 6 * 100_000, "\(large.steps) steps for 600 000 bytes")
        // The same through the extractor: the link is the decoded value.
        #expect(HTMLLinkExtractor.hrefs(in: "<a href=\"" + String(repeating: "x&amp;", count: 1_000) + "\">").first?.utf8.count == 2_000)
    }
}
