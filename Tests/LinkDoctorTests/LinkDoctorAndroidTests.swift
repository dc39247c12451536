import AssociatedDomains
import Foundation
@testable import LinkDoctor
import Testing
import UniversalLinkKit
import UniversalLinkKitTesting

/// Android's verifier rules (`StatementService`) in `doctor domain`, and Android's answer in `doctor campaign`.
struct LinkDoctorAndroidTests {
    static func statement(_ extensions: String = "", package: String = "com.example.app") -> String {
        #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": ["\#(Fixtures.fingerprint)"]}\#(extensions)}"#
    }

    @Test func dynamicRulesAndroidWouldDropAreAnError() async throws {
        let standIns = try StandIns()
        let dropped = #", "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "/pub/acc"}, {"?": {"a": 1}}]}}"#
        standIns.files.serve("[\(Self.statement(dropped))]", at: AssociationFileServer.assetLinksPath)
        let findings = await standIns.doctor().checkDomain(standIns.check(android: true))
        #expect(findings.codes == ["assetlinks.dynamicRulesDropped"])
        #expect(findings.first?.message.contains(#"dynamic_app_link_components[1]["?"].a: expected a string, found a number (1)"#) == true)

        let fine = #", "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "/pub/acc"}]}}"#
        standIns.files.serve("[\(Self.statement(fine))]", at: AssociationFileServer.assetLinksPath)
        #expect(await standIns.doctor().checkDomain(standIns.check(android: true)).isEmpty)
    }

    @Test func anIncludeIsFollowedOneLevel() async throws {
        let standIns = try StandIns()
        let included = "/shared/assetlinks.json"
        standIns.files.serve(#"[{"include": "\#(standIns.url(included))"}]"#, at: AssociationFileServer.assetLinksPath)
        standIns.files.serve("[\(Self.statement())]", at: included)
        #expect(await standIns.doctor().checkDomain(standIns.check(android: true, fingerprints: [Fixtures.fingerprint])).isEmpty)

        // Two levels: the statement behind the second include does not count.
        let deeper = "/deeper/assetlinks.json"
        standIns.files.serve(#"[{"include": "\#(standIns.url(deeper))"}]"#, at: included)
        standIns.files.serve("[\(Self.statement())]", at: deeper)
        let nested = await standIns.doctor().checkDomain(standIns.check(android: true))
        #expect(nested.codes == ["assetlinks.include", "assetlinks.packageMissing"])
        #expect(nested.first?.message.contains("Android follows includes one level only") == true)

        standIns.files.serve("gone", at: included, status: 404, contentType: "text/plain")
        let missing = await standIns.doctor().checkDomain(standIns.check(android: true))
        #expect(missing.codes == ["assetlinks.include", "assetlinks.packageMissing"])
        #expect(missing.first?.message.contains("answers 404") == true)
    }

    @Test func aDeclaredLengthOverOneMebibyteIsRefused() {
        let doctor = LinkDoctor()
        let big = TransportResponse(statusCode: 200, headerFields: ["Content-Length": "1048577"], body: Data("[]".utf8))
        #expect(doctor.androidVerifierFindings(big, package: "p.q", subject: "s").map(\.code) == [.assetlinksDeclaredTooLarge])
        let fine = TransportResponse(statusCode: 200, headerFields: ["Content-Length": "1048576"], body: Data("[]".utf8))
        #expect(doctor.androidVerifierFindings(fine, package: "p.q", subject: "s").isEmpty)
    }

    static let manifest = #"""
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"><application>
        <activity android:name=".Main"><intent-filter android:autoVerify="true">
        <action android:name="android.intent.action.VIEW"/><category android:name="android.intent.category.DEFAULT"/>
        <category android:name="android.intent.category.BROWSABLE"/>
        <data android:scheme="https" android:host="news.example.com" android:pathPrefix="/pub/"/>
        </intent-filter></activity></application></manifest>
        """#

    static let email = #"""
        <html><body>
        <a href="https://news.example.com/pub/acc?_ri_=1">Product</a>
        <a href="https://news.example.com/pub/cc?_ri_=2">Web only</a>
        <a href="https://news.example.com/unsubscribe?u=1&amp;x=<b>">Unsubscribe</a>
        <a href="mailto:help@example.com">Mail us</a>
        </body></html>
        """#

    func report() async throws -> CampaignReport {
        var campaign = CampaignCheck(html: Self.email, appIDs: [Fixtures.app], association: try AppSiteAssociation(parsing: Fixtures.responsysAASA))
        campaign.android = AndroidLinkMatcher(
            manifest: try AndroidManifest(parsing: Self.manifest),
            statements: try AndroidAssetStatement.statements(in: Array(Fixtures.assetLinks().utf8)))
        let doctor = LinkDoctor(configuration: .init(timeout: .seconds(600)), transport: ClosureTransport { _, _ in TransportResponse(statusCode: 404) }, clock: StandIns.frozen)
        return await doctor.checkCampaign(campaign)
    }

    @Test func campaignLinksAreJudgedOnBothPlatformsAndDisagreementsAreErrors() async throws {
        let report = try await report()
        let byURL = Dictionary(uniqueKeysWithValues: report.links.map { ($0.url, $0) })
        let acc = try #require(byURL["https://news.example.com/pub/acc?_ri_=1"])
        #expect(acc.opensApp == true && acc.opensAppOnAndroid == true)
        #expect(!acc.findings.contains { $0.code == .linkPlatformsDisagree })
        let cc = try #require(byURL["https://news.example.com/pub/cc?_ri_=2"])
        #expect(cc.opensApp == false && cc.opensAppOnAndroid == true)
        let disagreement = try #require(cc.findings.first { $0.code == .linkPlatformsDisagree })
        #expect(disagreement.severity == .error)
        #expect(disagreement.message.hasPrefix("This link opens the browser on iOS but the app on Android: .Main (line 2) takes it (autoVerify host \"news.example.com\")."))
        let unsubscribe = try #require(report.links.first { $0.url.hasPrefix("https://news.example.com/unsubscribe") })
        #expect(unsubscribe.opensApp == false && unsubscribe.opensAppOnAndroid == false)
        #expect(byURL["mailto:help@example.com"]?.opensAppOnAndroid == nil)
    }

    /// The cells of each `<tr>` of the links table, tags stripped and entities decoded.
    static func rows(_ html: String) throws -> [[String]] {
        let body = try #require(html.range(of: "<tbody>").flatMap { start in html.range(of: "</tbody>").map { html[start.upperBound..<$0.lowerBound] } })
        return body.components(separatedBy: "</tr>").dropLast().map { row in
            row.components(separatedBy: "<td").dropFirst().map { cell in
                var text = String(cell[cell.index(after: cell.firstIndex(of: ">")!)...])
                if let end = text.range(of: "</td>") { text = String(text[..<end.lowerBound]) }
                text = text.replacingOccurrences(of: "<br>", with: "\n")
                while let open = text.firstIndex(of: "<"), let close = text[open...].firstIndex(of: ">") { text.removeSubrange(open...close) }
                for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
                    text = text.replacingOccurrences(of: entity, with: character)
                }
                return text
            }
        }
    }

    @Test func theHTMLReportListsEveryLinkWithBothPlatformsAndFindingsErrorsFirst() async throws {
        let html = try await report().html(title: "spring <sale>.html")
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<title>Link check: spring &lt;sale&gt;.html</title>"))
        // Self-contained: nothing is fetched or run.
        for forbidden in ["<script", "src=", "<link", "url(", "@import", "http-equiv"] { #expect(!html.contains(forbidden), "\(forbidden)") }
        let rows = try Self.rows(html)
        #expect(rows.count == 4)
        #expect(rows.map { $0[1] } == ["https://news.example.com/pub/acc?_ri_=1", "https://news.example.com/pub/cc?_ri_=2", "https://news.example.com/unsubscribe?u=1&x=<b>", "mailto:help@example.com"])
        #expect(rows.map { $0[2] } == ["app link", "web link", "web link", "other"])
        #expect(rows.map { $0[4] } == ["Yes", "No, browser", "No, browser", "unknown"])
        let answers = ["No, browser", "Yes", "unknown"]
        #expect(rows.map { cell in answers.first { cell[5].hasPrefix($0) } } == ["Yes", "Yes", "No, browser", "unknown"])
        #expect(rows[1][5].contains(".Main (line 2) takes it"))
        #expect(html.contains("<tr class=\"disagree\"><td>2</td>"))
        // Findings: every error before the first warning or info.
        let severities = html.components(separatedBy: "data-severity=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(severities.first == "error")
        #expect(severities == severities.sorted { ["error", "warning", "info"].firstIndex(of: $0)! < ["error", "warning", "info"].firstIndex(of: $1)! })
        #expect(html.contains("<b>1</b>iOS/Android disagreements"))
    }

    @Test func withoutAFileTheAndroidStatementsAreFetchedOncePerDomain() async throws {
        let standIns = try StandIns()
        let host = standIns.domain
        let manifest = Self.manifest.replacingOccurrences(of: "news.example.com", with: "127.0.0.1")
        let email = """
            <a href="http://\(host)/pub/acc?_ri_=1">app</a><a href="http://\(host)/pub/cc?_ri_=2">web</a>
            """
        let dynamic = #", "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "/pub/cc*", "exclude": true}, {"/": "*"}]}}"#
        standIns.files.serve("[\(Self.statement(dynamic))]", at: AssociationFileServer.assetLinksPath)
        var campaign = CampaignCheck(html: email, appIDs: [Fixtures.app], association: try AppSiteAssociation(parsing: Fixtures.responsysAASA))
        campaign.brandedDomains = ["127.0.0.1"]
        campaign.android = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: manifest))
        // A rehearsal (http allowed, the stand-in speaks plain http): both platforms judge each http link as its
        // https form, the form the campaign will send, so the https-only manifest takes it and the platforms agree.
        let report = await standIns.doctor().checkCampaign(campaign)
        #expect(report.links.map(\.opensApp) == [true, false])
        #expect(report.links.map(\.opensAppOnAndroid) == [true, false])
        #expect(report.links.map(\.androidReason).last??.contains("dynamic_app_link_components[0]") == true)
        #expect(!report.allFindings.contains { $0.code == .linkPlatformsDisagree }, "\(report.allFindings)")
        #expect(standIns.origin.requestCount(for: AssociationFileServer.assetLinksPath) == 1)

        standIns.files.serve("gone", at: AssociationFileServer.assetLinksPath, status: 404, contentType: "text/plain")
        let unverified = await standIns.doctor().checkCampaign(campaign)
        #expect(unverified.links.map(\.opensAppOnAndroid) == [false, false])
        #expect(unverified.links.first?.androidReason?.contains("assetlinks.json has no handle_all_urls statement") == true)

        // Not a rehearsal (http not allowed): iOS never opens an http link; Android does when the filter declares
        // http: a real disagreement.
        let httpManifest = manifest.replacingOccurrences(of: #"android:scheme="https""#, with: #"android:scheme="http""#)
        campaign.android = AndroidLinkMatcher(
            manifest: try AndroidManifest(parsing: httpManifest),
            statements: try AndroidAssetStatement.statements(in: Array("[\(Self.statement(dynamic))]".utf8)))
        let strict = LinkDoctor(configuration: .init(timeout: .seconds(600)), transport: ClosureTransport { _, _ in TransportResponse(statusCode: 404) }, clock: StandIns.frozen)
        let real = await strict.checkCampaign(campaign)
        #expect(real.links.map(\.opensApp) == [false, false])
        #expect(real.links.map(\.opensAppOnAndroid) == [true, false])
        #expect(real.allFindings.filter { $0.code == .linkPlatformsDisagree }.map(\.subject) == ["http://\(host)/pub/acc?_ri_=1"])
    }
}
