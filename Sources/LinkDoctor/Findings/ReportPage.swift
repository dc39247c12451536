internal import _LinkKitText

/// The frame the doctor's HTML reports share (the campaign's and the domain's): the document, its style, the
/// summary tiles and the way one finding is shown.
///
/// A report is one self-contained page a person can open from a mail or a CI artefact: inline CSS only, no script,
/// no font, no image, nothing fetched. Every text that comes from outside (a link, a certificate's name, a server's
/// header, a title) goes through the package's one escaper, so it cannot inject markup.
enum ReportPage {
    /// The whole document: `heading` (escaped) as its `<title>` and `<h1>`, the shared style followed by `style`,
    /// then `body`.
    ///
    /// - Parameters:
    ///   - heading: The page's title, plain text.
    ///   - style: CSS rules of this report only.
    ///   - body: The markup after the heading, every outside text in it already escaped.
    /// - Returns: The HTML document.
    static func document(heading: String, style: String = "", body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(heading))</title>
        <style>
        \(sharedStyle)
        \(style)</style>
        </head>
        <body>
        <h1>\(escape(heading))</h1>
        \(body)</body>
        </html>

        """
    }

    /// The rules every report uses: page, headings, summary tiles, tables, severity badges, finding lists.
    private static let sharedStyle = """
        body { font: 15px/1.45 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; margin: 24px;
          color: #1d1d1f; }
        h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
        .summary { display: flex; gap: 12px; margin: 16px 0; flex-wrap: wrap; }
        .tile { border-radius: 8px; padding: 10px 14px; background: #f2f2f4; min-width: 120px; }
        .tile b { display: block; font-size: 22px; overflow-wrap: anywhere; }
        .tile.bad { background: #fde8e8; color: #8a1111; } .tile.ok { background: #e6f5ea; color: #14532d; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid #e2e2e6; }
        th { background: #fafafa; font-weight: 600; }
        .sev { display: inline-block; border-radius: 4px; padding: 0 6px; font-size: 12px; font-weight: 600;
          text-transform: uppercase; }
        .sev.error { background: #fde8e8; color: #8a1111; } .sev.warning { background: #fff4e5; color: #8a4b00; }
        .sev.info { background: #eef2ff; color: #1e3a8a; }
        li { margin: 6px 0; }
        .code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; color: #6e6e73; }
        """

    /// A summary tile: a figure over what it counts, red when `bad` is true, green when it is false.
    ///
    /// - Parameters:
    ///   - figure: The figure, plain text.
    ///   - label: What it counts, plain text.
    ///   - bad: Whether the figure is bad news; `nil` for neither.
    /// - Returns: The tile's markup.
    static func tile(_ figure: String, _ label: String, bad: Bool? = nil) -> String {
        let tone = bad.map { $0 ? " bad" : " ok" } ?? ""
        return "<div class=\"tile\(tone)\"><b>\(escape(figure))</b>\(escape(label))</div>\n"
    }

    /// One finding as a list item: its severity, its message (what is wrong and what to do about it), then its code
    /// and what was checked.
    ///
    /// - Parameter finding: The finding.
    /// - Returns: The `<li>` element, with the severity in `data-severity`.
    static func item(_ finding: Finding) -> String {
        let severity = finding.severity.rawValue
        return "<li data-severity=\"\(severity)\"><span class=\"sev \(severity)\">\(severity)</span> "
            + "\(escape(finding.message)) "
            + "<span class=\"code\">\(escape(finding.code.rawValue)) · \(escape(finding.subject))</span></li>\n"
    }

    /// Text escaped for HTML content and double-quoted attributes, by the package's one escaper.
    ///
    /// - Parameter text: Plain text.
    /// - Returns: The escaped text.
    static func escape(_ text: String) -> String {
        MarkupEscaping.escaped(text)
    }
}
