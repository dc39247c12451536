/// One thing the link doctor found: a stable code, how bad it is, what was checked and what to do.
///
/// Codes are stable strings (`aasa.redirect`, `link.customScheme`...) that CI scripts may match on; messages are
/// for people and may change.
///
/// ```swift
/// let findings = await LinkDoctor().checkDomain(DomainCheck(domain: "news.example.com", appIDs: ["ABCDE12345.com.example.app"]))
/// for finding in findings where finding.severity == .error { print(finding) }
/// ```
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// How bad a finding is.
    public enum Severity: String, Sendable, Hashable, CaseIterable {
        /// Links will not work as intended: fix before sending or shipping.
        case error
        /// Links work today but are fragile, or will work only for some readers.
        case warning
        /// Worth knowing; nothing to fix.
        case info

        /// Errors first, then warnings, then information: the order reports list them in.
        package var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .info: 2
            }
        }
    }

    /// A finding's stable identifier, such as `aasa.redirect`: compare it with a string literal
    /// (`finding.code == "aasa.redirect"`). The codes and their meaning are listed in <doc:APIAtAGlance>; new ones
    /// may be added.
    public struct Code: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The code as printed and as JSON carries it, `area.name`.
        package let rawValue: String

        package init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a code from a string literal, for comparisons: `finding.code == "aasa.redirect"`.
        ///
        /// - Parameter value: The code, `area.name`.
        public init(stringLiteral value: String) {
            self.rawValue = value
        }

        /// The code as printed and as JSON carries it, `area.name`.
        public var description: String { rawValue }
    }

    /// What was found.
    public var code: Code
    /// How bad it is.
    public var severity: Severity
    /// The URL or file checked: an association file's URL, a link from an email, an expected URL.
    public var subject: String
    /// What is wrong and what to do about it.
    public var message: String

    package init(code: Code, severity: Severity, subject: String, message: String) {
        self.code = code
        self.severity = severity
        self.subject = subject
        self.message = message
    }

    /// `"<severity>: <code>: <message>"`.
    public var description: String { "\(severity.rawValue): \(code): \(message)" }
}

extension Sequence<Finding> {
    /// How many findings have the given severity.
    package func count(of severity: Finding.Severity) -> Int {
        self.count { $0.severity == severity }
    }

    /// The findings, errors first, each severity in the order found.
    package func bySeverity() -> [Finding] {
        enumerated().sorted { ($0.element.severity.rank, $0.offset) < ($1.element.severity.rank, $1.offset) }.map(\.element)
    }
}
