extension DomainReport {
    /// The report as one self-contained HTML page a person can open: the domain and its error and warning counts,
    /// then the findings check by check (checks with errors first, the worst finding first in each), each with its
    /// message (what is wrong and what to do about it), its code and what was fetched, then the checks that found
    /// nothing.
    ///
    /// The page is framed and escaped as every report of the doctor is (`ReportPage`): inline CSS only, nothing
    /// fetched or run, so a hostile certificate name or server header cannot inject markup.
    ///
    /// - Returns: The HTML document.
    package func html() -> String {
        let all = findings
        let (errors, warnings) = (all.count(of: .error), all.count(of: .warning))
        var body = """
            <p>What devices, Apple's CDN and Android's verifier see for this domain: its HTTPS, its association files \
            and the copy Apple's CDN serves.</p>
            <div class="summary">

            """
        body += ReportPage.tile(domain, "domain")
            + ReportPage.tile("\(errors)", "errors", bad: errors > 0)
            + ReportPage.tile("\(warnings)", "warnings")
            + "</div>\n"
        body += errors > 0
            ? "<p class=\"verdict bad\">\(Self.count(errors, "error")) to fix before links of this domain work as "
                + "intended.</p>\n"
            : "<p class=\"verdict ok\">No errors"
                + (warnings > 0 ? "; \(Self.count(warnings, "warning")) to read below" : "") + ".</p>\n"
        let rank = { (check: Check) in check.findings.bySeverity().first?.severity.rank ?? Int.max }
        // Stable: checks of equal worst severity keep the order the doctor ran them in.
        let ordered = checks.enumerated()
            .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        for check in ordered where !check.findings.isEmpty {
            let counts = Finding.Severity.allCases.compactMap { severity -> String? in
                let number = check.findings.count(of: severity)
                return number == 0 ? nil : severity == .info ? "\(number) info" : Self.count(number, severity.rawValue)
            }
            let worst = check.findings.bySeverity()[0].severity.rawValue
            body += "<section class=\"check\">\n<h2>\(ReportPage.escape(check.name)) "
                + "<span class=\"sev \(worst)\">\(counts.joined(separator: ", "))</span></h2>\n<ul>\n"
                + check.findings.bySeverity().map(ReportPage.item).joined() + "</ul>\n</section>\n"
        }
        // "Without findings", not "passed": a check that had nothing to judge (no file was served) finds nothing.
        let quiet = checks.filter(\.findings.isEmpty)
        if !quiet.isEmpty {
            body += "<h2>Checks without findings</h2>\n<ul class=\"quiet\">\n"
                + quiet.map { "<li>\(ReportPage.escape($0.name))</li>\n" }.joined() + "</ul>\n"
        }
        return ReportPage.document(heading: "Domain check: \(domain)", style: Self.style, body: body)
    }

    /// The rules of this page only; the rest are the ones every report shares.
    private static let style = """
        .verdict { font-weight: 600; } .verdict.bad { color: #8a1111; } .verdict.ok { color: #14532d; }
        h2 .sev { vertical-align: middle; margin-left: 6px; }

        """

    /// `1 error`, `2 warnings`.
    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
