/// What ``LinkDoctor/checkCampaign(_:)`` found: every distinct link with its findings, and the findings about
/// the campaign as a whole (an association file that could not be read).
public struct CampaignReport: Sendable, Hashable {
    /// The email's distinct links, in order of first appearance.
    public var links: [CampaignLink]
    /// Findings not about one link, such as `aasa.unreachable` for a branded domain.
    package var findings: [Finding]

    package init(links: [CampaignLink], findings: [Finding] = []) {
        self.links = links
        self.findings = findings
    }

    /// Every finding: those about the campaign as a whole (an association file that could not be read), then every
    /// link's (also in ``CampaignLink/findings``).
    public var allFindings: [Finding] {
        findings + links.flatMap(\.findings)
    }
}
