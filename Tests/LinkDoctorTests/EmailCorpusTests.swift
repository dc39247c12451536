import AssociatedDomains
import Foundation
import LinkDoctor
import Testing

/// Real emails from public template collections (`Fixtures/Emails`, named with their repository, commit and licence
/// in `SOURCES`), their links rewritten into Responsys tracking links: the doctor reads in each the links that
/// html5lib, a WHATWG parser, reads (recorded once by `Fixtures/record-expected.py`; nothing here runs it).
struct EmailCorpusTests {
    /// What html5lib read in one email.
    struct Expected: Decodable {
        /// The `href` of each `<a>` and `<area>` a browser shows, in the order of their start tags.
        var links: [String]
        /// The same inside conditional comments Outlook renders, VML elements included.
        var outlookOnly: [String]
        /// The distinct Outlook-only tracking links no phone link matches (host, path, `_ri_`).
        var outlookOnlyDiffers: [String]
    }

    static let directory = Fixtures.directory.appendingPathComponent("Emails")

    /// `NAME` of each `NAME.expected.json`.
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".expected.json") }
        .map { String($0.dropLast(".expected.json".count)) }
        .sorted()

    @Test func theCorpusHasThirtyEmailsOrMoreEachWithItsSourceAndLicence() throws {
        #expect(Self.names.count >= 30)
        let sources = try String(contentsOf: Self.directory.appendingPathComponent("SOURCES"), encoding: .utf8)
        let rows = sources.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t") }
        #expect(rows.allSatisfy { $0.count == 6 && $0[2].count == 40 && ["MIT", "Apache-2.0"].contains($0[4]) })
        #expect(rows.map { String($0[0]) }.sorted() == Self.names)
        let licences = try String(contentsOf: Self.directory.appendingPathComponent("LICENSES"), encoding: .utf8)
        for repository in Set(rows.map { $0[1] }) {
            #expect(licences.contains("== \(repository) "), "no licence text for \(repository)")
        }
    }

    @Test(arguments: names)
    func theDoctorReadsTheLinksAWHATWGParserReads(_ name: String) async throws {
        let html = try String(contentsOf: Self.directory.appendingPathComponent("\(name).html"), encoding: .utf8)
        let expected = try JSONDecoder().decode(
            Expected.self, from: Data(contentsOf: Self.directory.appendingPathComponent("\(name).expected.json")))
        #expect(HTMLLinkExtractor.hrefs(in: html) == expected.links)

        let report = await LinkDoctorCampaignTests.doctor().checkCampaign(CampaignCheck(
            html: html, appIDs: [Fixtures.app], association: try AppSiteAssociation(parsing: Fixtures.responsysAASA)))
        #expect(report.links.filter { $0.kind != .outlookOnly }.map(\.url) == Self.distinct(expected.links))
        #expect(report.links.filter { $0.kind == .outlookOnly }.map(\.url) == Self.distinct(expected.outlookOnly))
        let differing = report.links.filter { $0.findings.contains { $0.code == .linkOutlookOnlyDiffers } }
        #expect(differing.map(\.url) == expected.outlookOnlyDiffers)
        // Every tracking link, however its `&` was written, is one the Responsys file judges as meant.
        for link in report.links where link.kind == .appLink || link.kind == .webLink {
            #expect(link.opensApp == (link.kind == .appLink), "\(link.url)")
            #expect(link.findings.isEmpty, "\(link.findings)")
        }
    }

    static func distinct(_ links: [String]) -> [String] {
        var seen: Set<String> = []
        return links.filter { seen.insert($0).inserted }
    }
}
