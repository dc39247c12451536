internal import _LinkKitText

extension CampaignReport {
    /// The report as one self-contained HTML page a marketer can open: a summary, every link of the email with
    /// where it goes, whether it opens the app on iOS and on Android, its route, and every finding, errors first.
    /// `linux-host doctor campaign --html` writes it; like the console's text, JSON and JUnit reports, it is made
    /// from the report's public values.
    ///
    /// The page has inline CSS only: no script, no font, no image, nothing fetched. Every text from the email or
    /// the findings is escaped, so a hostile link cannot inject markup.
    ///
    /// - Parameter title: The page title, e.g. the email's file name.
    /// - Returns: The HTML document.
    package func html(title: String) -> String {
        let all = allFindings
        let errors = all.filter { $0.severity == .error }.count
        let warnings = all.filter { $0.severity == .warning }.count
        let disagreements = links.filter { $0.opensApp != nil && $0.opensAppOnAndroid != nil && $0.opensApp != $0.opensAppOnAndroid }.count
        var h = """
            <p>What each link of this email does when a reader taps it on an iPhone and on an Android phone.</p>
            <div class="summary">

            """
        h += ReportPage.tile("\(links.count)", "links")
            + ReportPage.tile("\(errors)", "errors", bad: errors > 0)
            + ReportPage.tile("\(warnings)", "warnings")
            + ReportPage.tile("\(disagreements)", "iOS/Android disagreements", bad: disagreements > 0)
            + "</div>\n\n<h2>Findings, errors first</h2>\n"
        if all.isEmpty {
            h += "<p>No findings.</p>\n"
        } else {
            h += "<ul id=\"findings\">\n" + all.bySeverity().map(ReportPage.item).joined() + "</ul>\n"
        }
        h += """
            <h2>Links</h2>
            <table id="links">
            <thead><tr><th>#</th><th>Link</th><th>Kind</th><th>Goes to</th><th>Opens the app on iOS</th><th>Opens the app on Android</th><th>Route</th><th>Findings</th></tr></thead>
            <tbody>

            """
        for (index, link) in links.enumerated() {
            let disagree = link.opensApp != nil && link.opensAppOnAndroid != nil && link.opensApp != link.opensAppOnAndroid
            let destination = [link.deepLink.map { "app: " + $0 }, link.webLink.map { "web: " + $0 }].compactMap { $0 }
            let worst = link.findings.bySeverity().first?.severity
            h += "<tr\(disagree ? " class=\"disagree\"" : "")>"
                + "<td>\(index + 1)</td>"
                + "<td class=\"url\">\(Self.escape(link.url))</td>"
                + "<td>\(Self.kindName(link.kind))</td>"
                + "<td class=\"dest\">\(destination.isEmpty ? "<span class=\"unknown\">not resolved</span>" : destination.map(Self.escape).joined(separator: "<br>"))</td>"
                + "<td>\(link.kind == .outlookOnly ? Self.notJudged : Self.answer(link.opensApp, why: nil))</td>"
                + "<td>\(link.kind == .outlookOnly ? Self.notJudged : Self.answer(link.opensAppOnAndroid, why: link.androidReason))</td>"
                + "<td>\(link.route.map(Self.escape) ?? "<span class=\"unknown\">—</span>")</td>"
                + "<td>\(worst.map { "<span class=\"sev \($0.rawValue)\">\(link.findings.count) \($0.rawValue == "error" ? "error" : "finding")\(link.findings.count == 1 ? "" : "s")</span>" } ?? "")</td>"
                + "</tr>\n"
        }
        h += "</tbody>\n</table>\n"
        return ReportPage.document(heading: "Link check: \(title)", style: Self.style, body: h)
    }

    /// The rules of this page only; the rest are the ones every report shares (`ReportPage`).
    private static let style = """
        td.url, td.dest { overflow-wrap: anywhere; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
        .yes { color: #14532d; font-weight: 600; } .no { color: #8a1111; font-weight: 600; } .unknown { color: #6e6e73; }
        tr.disagree td { background: #fff4e5; }
        .why { color: #6e6e73; font-size: 12px; max-width: 320px; }

        """

    private static func kindName(_ kind: CampaignLink.Kind) -> String {
        switch kind {
        case .appLink: "app link"
        case .webLink: "web link"
        case .other: "other"
        case .outlookOnly: "Outlook only"
        }
    }

    /// What an Outlook-only link shows in the phone columns: phones never see it.
    private static let notJudged = "<span class=\"unknown\">not judged (Outlook only)</span>"

    private static func answer(_ value: Bool?, why: String?) -> String {
        let because = why.map { "<div class=\"why\">\(escape($0))</div>" } ?? ""
        switch value {
        case true?: return "<span class=\"yes\">Yes</span>" + because
        case false?: return "<span class=\"no\">No, browser</span>" + because
        case nil: return "<span class=\"unknown\">unknown</span>"
        }
    }

    /// Escapes text for HTML content and attributes.
    static func escape(_ text: String) -> String {
        MarkupEscaping.escaped(text)
    }
}
