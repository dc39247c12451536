import Foundation
import LinkDoctor
internal import _LinkKitText

/// How `linux-host doctor` prints what it found: text grouped by subject, JSON lines, and a JUnit file.
///
/// Text: one block per subject (blocks with errors first, then warnings, then information; in each block the
/// worst first), subjects and messages escaped (``Console/escaped(_:)``: a hostile `Location` or app ID cannot
/// forge a line), then for `campaign` the links only Outlook renders (`outlookOnly: N links ...`, one indented line
/// each), then `N errors, M warnings` (`1 error, 1 warning` in the singular). JSON (`--json`): for `campaign`, each
/// link's line `{"link", "kind", "opensApp", "deepLink", "webLink", "route"}` followed by its findings' lines
/// `{"code", "severity", "subject", "message"}`; nothing else on stdout. JUnit (`--junit FILE`): one test case
/// per check (domain) or per link (campaign; an Outlook-only link's case is named `URL (outlookOnly)`), a failure
/// for each case with errors. The HTML page (`--html FILE`) is LinkDoctor's own (`DomainReport`, whose checks are
/// also the domain's JUnit cases, and `CampaignReport`); `DoctorCommand` writes it.
struct DoctorOutput {
    /// One JUnit test case: a check or a link, and its findings.
    struct Case {
        var name: String
        var findings: [Finding]
    }

    /// `doctor domain DOMAIN` or `doctor campaign FILE`, the JUnit suite's name.
    var suite: String
    /// The test cases, in order; every finding is in exactly one.
    var cases: [Case]
    /// Campaign links, for their JSON lines; empty for `domain`.
    var links: [CampaignLink] = []
    /// Findings not about one link (campaign), printed before the links in JSON.
    var generalFindings: [Finding] = []

    var allFindings: [Finding] { cases.flatMap(\.findings) }

    /// Prints the report and writes the JUnit file; returns the exit status (0 without errors, 1 with errors or
    /// when the JUnit file cannot be written, as any failed write).
    func emit(json: Bool, junit junitFile: OutputFile?) -> Int32 {
        if json {
            if links.isEmpty {
                for finding in allFindings { Console.out(Self.jsonLine(finding)) }
            } else {
                for finding in generalFindings { Console.out(Self.jsonLine(finding)) }
                for link in links {
                    Console.out(Self.jsonLine(link))
                    for finding in link.findings { Console.out(Self.jsonLine(finding)) }
                }
            }
        } else {
            printText()
        }
        if let junitFile, let reason = junitFile.write(Array(junit().utf8)) {
            Console.err("linux-host: doctor: cannot write the JUnit report '\(junitFile.path)': \(reason)")
            return 1
        }
        return allFindings.contains { $0.severity == .error } ? 1 : 0
    }

    private func printText() {
        var order: [String] = []
        var bySubject: [String: [Finding]] = [:]
        for finding in allFindings {
            if bySubject[finding.subject] == nil { order.append(finding.subject) }
            bySubject[finding.subject, default: []].append(finding)
        }
        let worst = { (subject: String) in (bySubject[subject] ?? []).bySeverity().first?.severity.rank ?? Finding.Severity.info.rank }
        // Stable: subjects of equal worst severity keep the order the checks found them in.
        let subjects = order.enumerated().sorted { lhs, rhs in
            (worst(lhs.element), lhs.offset) < (worst(rhs.element), rhs.offset)
        }.map(\.element)
        for subject in subjects {
            Console.out(Console.escaped(subject))
            for finding in (bySubject[subject] ?? []).bySeverity() {
                Console.out("  \(finding.severity.rawValue): \(Console.escaped(finding.code.rawValue)): "
                    + Console.escaped(finding.message))
            }
        }
        let outlookOnly = links.filter { $0.kind == .outlookOnly }
        if !outlookOnly.isEmpty {
            Console.out("outlookOnly: \(Self.count(outlookOnly.count, "link")) only Outlook on Windows renders "
                + "(inside <!--[if mso]>), not judged as app links")
            for link in outlookOnly { Console.out("  " + Console.escaped(link.url)) }
        }
        let findings = allFindings
        Console.out("\(Self.count(findings.count(of: .error), "error")), \(Self.count(findings.count(of: .warning), "warning"))")
    }

    /// `1 error`, `2 errors`, `0 warnings`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    static func jsonLine(_ finding: Finding) -> String {
        Console.jsonLine([
            "code": .string(finding.code.rawValue), "severity": .string(finding.severity.rawValue),
            "subject": .string(finding.subject), "message": .string(finding.message),
        ])
    }

    static func jsonLine(_ link: CampaignLink) -> String {
        Console.jsonLine([
            "link": .string(link.url), "kind": .string(link.kind.rawValue), "opensApp": .boolOrNull(link.opensApp),
            "opensAppOnAndroid": .boolOrNull(link.opensAppOnAndroid),
            "deepLink": .stringOrNull(link.deepLink), "webLink": .stringOrNull(link.webLink), "route": .stringOrNull(link.route),
        ])
    }

    /// The JUnit XML report.
    func junit() -> String {
        let failures = cases.count { $0.findings.contains { $0.severity == .error } }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="linux-host doctor" tests="\#(cases.count)" failures="\#(failures)">"# + "\n"
        xml += #"  <testsuite name="\#(Self.escape(suite))" tests="\#(cases.count)" failures="\#(failures)">"# + "\n"
        for testCase in cases {
            xml += #"    <testcase classname="\#(Self.escape(suite))" name="\#(Self.escape(testCase.name))""#
            let errors = testCase.findings.filter { $0.severity == .error }
            let others = testCase.findings.filter { $0.severity != .error }
            if errors.isEmpty && others.isEmpty {
                xml += "/>\n"
                continue
            }
            xml += ">\n"
            if !errors.isEmpty {
                let codes = errors.map(\.code.rawValue).joined(separator: ", ")
                let text = errors.map { "\($0.code): \($0.subject): \($0.message)" }.joined(separator: "\n")
                xml += #"      <failure type="\#(Self.escape(codes))" message="\#(Self.escape(errors[0].message))">"#
                xml += Self.escape(text) + "</failure>\n"
            }
            if !others.isEmpty {
                let text = others.map { "\($0.severity.rawValue): \($0.code): \($0.subject): \($0.message)" }
                xml += "      <system-out>" + Self.escape(text.joined(separator: "\n")) + "</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// XML-escaped text for attributes and elements (control characters XML cannot hold are shown as `[U+001B]`).
    static func escape(_ text: String) -> String {
        MarkupEscaping.escaped(text)
    }
}
