#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import LinkDoctor
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
        for html in ["<", "<a", "<a href", "<a href=", "<a href=\"x", "<a =x href=y>", "<!--", "<script>", "</", "&", "<a/href=z>"] {
            _ = HTMLLinkExtractor.hrefs(in: html)
        }
        #expect(HTMLLinkExtractor.hrefs(in: "<a =x href=y>") == ["y"])
    }

    /// Decoding `&amp;` references was quadratic (800 000 took 7.6 s, 4 million 382 s). The cost of four times the
    /// references, in this thread's CPU time (not the wall clock, so other work on the machine does not count),
    /// must stay near four times the cost: the quadratic decoder measured 9.6 at these sizes, and grows towards 16.
    @Test func decodingReferencesGrowsLinearly() async {
        // On a thread of its own: seconds of CPU in a debug build must not starve the deadline tests beside it.
        let (small, large, lengthsRight) = await onOwnThread { () -> (Double, Double, Bool) in
        var lengthsRight = true
        func cost(_ references: Int) -> Double {
            let html = "<a href=\"" + String(repeating: "x&amp;", count: references) + "\">"
            var best = Double.infinity
            for _ in 0..<3 {
                let start = Self.threadCPUSeconds()
                let links = HTMLLinkExtractor.hrefs(in: html)
                best = min(best, Self.threadCPUSeconds() - start)
                lengthsRight = lengthsRight && links.first?.utf8.count == 2 * references
            }
            return best
        }
        return (cost(25_000), cost(100_000), lengthsRight)
        }
        #expect(lengthsRight)
        #expect(large / small < 8, "4x the references cost \(large / small)x the time")
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
