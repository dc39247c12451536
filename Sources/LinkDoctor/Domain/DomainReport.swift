/// The findings of ``LinkDoctor/checkDomain(_:)`` grouped by what was checked: the one grouping that
/// `linux-host doctor domain`'s reports share, the JUnit file's test cases and the HTML page's sections.
package struct DomainReport: Sendable, Hashable {
    /// One thing that was checked, and what it found (nothing when it passed).
    package struct Check: Sendable, Hashable {
        /// What was checked, as a person names it: "Apple's CDN copy".
        package var name: String
        /// Its findings, in the order the doctor found them.
        package var findings: [Finding]
    }

    /// The domain, as given to the check.
    package var domain: String
    /// Every check, in the order the doctor runs them; every finding is in exactly one.
    package var checks: [Check]

    /// Groups a domain check's findings.
    ///
    /// - Parameters:
    ///   - domain: The domain checked.
    ///   - findings: What ``LinkDoctor/checkDomain(_:)`` returned.
    ///   - https: Whether the domain was checked over https, which adds the App Transport Security check.
    ///   - android: Whether `assetlinks.json` was checked.
    package init(domain: String, findings: [Finding], https: Bool, android: Bool) {
        var names = [Self.association, Self.expectations, Self.fetcher, Self.cdn]
        if https { names.insert(Self.tls, at: 0) }
        if android { names.append(Self.assetLinks) }
        // A finding of a check not listed still gets one, so no report drops it.
        for finding in findings where !names.contains(Self.check(of: finding)) { names.append(Self.check(of: finding)) }
        self.domain = domain
        self.checks = names.map { name in Check(name: name, findings: findings.filter { Self.check(of: $0) == name }) }
    }

    /// Every finding, check by check.
    package var findings: [Finding] { checks.flatMap(\.findings) }

    private static let tls = "HTTPS (App Transport Security)"
    private static let association = "association file"
    private static let expectations = "expected URLs"
    private static let fetcher = "Apple's fetcher (AASA-Bot)"
    private static let cdn = "Apple's CDN copy"
    private static let assetLinks = "assetlinks.json"

    /// The check a finding belongs to, by its code.
    private static func check(of finding: Finding) -> String {
        switch finding.code {
        case .aasaExpectationFailed: expectations
        case .aasaBotBlocked: fetcher
        case .aasaCdnMismatch, .aasaCdnUnavailable: cdn
        case _ where finding.code.rawValue.hasPrefix("tls."): tls
        case _ where finding.code.rawValue.hasPrefix("assetlinks."): assetLinks
        default: association
        }
    }
}
