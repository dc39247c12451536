import AssociatedDomains
import Foundation
import LinkDoctor
import LinkRouting
import Synchronization
import Testing
import UniversalLinkKit
import UniversalLinkKitTesting
import _LinkKitLocking

/// `checkCampaign` on HTML fixtures: every link code, resolution once per distinct link, and the association
/// file fetched from a loopback stand-in.
struct LinkDoctorCampaignTests {
    static let email = """
        <html><body>
        <a href="https://news.example.com/pub/acc?_ri_=1&amp;_ei_=A">Product</a>
        <a href="https://news.example.com/pub/acc?_ri_=1&#38;_ei_=A">Same product, other encoding</a>
        <a href="https://news.example.com/pub/acc?_ri_=null&amp;_ei_=B">Blank app column</a>
        <a href="https://news.example.com/pub/cc?_ri_=2">Web only</a>
        <a href="https://news.example.com/unsubscribe?u=1">Unsubscribe</a>
        <a href="http://news.example.com/pub/acc?_ri_=3">Insecure</a>
        <a href="example-app://products/1">Open in app</a>
        <a href="mailto:help@example.com">Mail us</a><a href="tel:+15555550100">Call us</a>
        <a href="/pub/acc?_ri_=4">Relative</a>
        <a href="https://www.example.org/about">Elsewhere</a>
        </body></html>
        """

    static func doctor(_ transport: any LinkTransport = ClosureTransport { _, _ in TransportResponse(statusCode: 404) }) -> LinkDoctor {
        LinkDoctor(configuration: .init(timeout: .seconds(600)), transport: transport, clock: StandIns.frozen)
    }

    func link(_ report: CampaignReport, _ prefix: String) throws -> CampaignLink {
        try #require(report.links.first { $0.url.hasPrefix(prefix) }, "no link \(prefix)")
    }

    @Test func eachDistinctLinkIsJudgedByTheAssociationFile() async throws {
        let association = try AppSiteAssociation(parsing: Fixtures.responsysAASA)
        let report = await Self.doctor().checkCampaign(CampaignCheck(
            html: Self.email, appIDs: [Fixtures.app], association: association))
        // Entity-decoded hrefs: the two spellings of the first link are one link.
        #expect(report.links.count == 10)
        #expect(report.links[0].url == "https://news.example.com/pub/acc?_ri_=1&_ei_=A")
        #expect(report.findings.isEmpty)

        let app = try link(report, "https://news.example.com/pub/acc?_ri_=1")
        #expect(app.kind == .appLink)
        #expect(app.opensApp == true)
        #expect(app.findings.isEmpty)
        let web = try link(report, "https://news.example.com/pub/cc")
        #expect(web.kind == .webLink)
        #expect(web.opensApp == false)
        #expect(web.findings.isEmpty)
        #expect(try link(report, "https://news.example.com/unsubscribe").findings.isEmpty)

        #expect(try link(report, "http://news.example.com").findings.map(\.code) == [.linkInsecure])
        #expect(try link(report, "http://news.example.com").opensApp == false)
        #expect(try link(report, "example-app:").findings.map(\.code) == [.linkCustomScheme])
        #expect(try link(report, "mailto:").findings.isEmpty)
        #expect(try link(report, "tel:").findings.isEmpty)
        #expect(try link(report, "mailto:").kind == .other)
        #expect(try link(report, "/pub/acc").findings.map(\.code) == [.linkRelative])
        let elsewhere = try link(report, "https://www.example.org")
        #expect(elsewhere.findings.map(\.code) == [.linkNotBranded])
        #expect(elsewhere.findings.first?.severity == .info)
        #expect(elsewhere.opensApp == nil)
    }

    @Test func aFileThatOpensEverythingOpensTheUnsubscribeLinkInTheApp() async throws {
        let association = try AppSiteAssociation(parsing: Fixtures.openEverythingAASA)
        let report = await Self.doctor().checkCampaign(CampaignCheck(
            html: Self.email, appIDs: [Fixtures.app], association: association))
        #expect(try link(report, "https://news.example.com/unsubscribe").findings.map(\.code) == [.linkWebLinkOpensApp])
        #expect(try link(report, "https://news.example.com/pub/cc").findings.map(\.code) == [.linkWebLinkOpensApp])

        let closed = try AppSiteAssociation(parsing: #"{"applinks": {"details": [{"appIDs": ["\#(Fixtures.app)"], "components": [{"/": "/shop/*"}]}]}}"#)
        let second = await Self.doctor().checkCampaign(CampaignCheck(
            html: Self.email, appIDs: [Fixtures.app], association: closed))
        let notOpening = try link(second, "https://news.example.com/pub/acc?_ri_=1")
        #expect(notOpening.findings.map(\.code) == [.linkAppLinkNotOpening])
        #expect(notOpening.findings.first?.severity == .error)
        #expect(notOpening.opensApp == false)
    }

    @Test func resolutionHappensOnlyWhenAskedAndOncePerDistinctAppLink() async throws {
        let requests = Mutex<[String]>([])
        let transport = ClosureTransport { request, _ in
            let query = request.url.query ?? ""
            requests.withTrackedLock { $0.append(query) }
            if query.contains("_ri_=null") {
                return TransportResponse(statusCode: 200, headerFields: ["Content-Type": "application/json"],
                                         body: Data(#"{"webLinkUrl": "https://www.example.com/sale", "mobileDeepLinkUrl": null}"#.utf8))
            }
            if query.contains("_ri_=1") {
                return TransportResponse(statusCode: 200, headerFields: ["Content-Type": "application/json"],
                                         body: Data(#"{"webLinkUrl": "https://www.example.com/products/1", "mobileDeepLinkUrl": "example-app://products/1"}"#.utf8))
            }
            return TransportResponse(statusCode: 500)
        }
        let association = try AppSiteAssociation(parsing: Fixtures.responsysAASA)
        var campaign = CampaignCheck(html: Self.email, appIDs: [Fixtures.app], association: association)
        _ = await Self.doctor(transport).checkCampaign(campaign)
        #expect(requests.withTrackedLock { $0 }.isEmpty)

        campaign.resolves = true
        campaign.routeTable = try RouteTable(json: Data(#"{"namespaces": [{"scheme": "example-app", "routes": [{"pattern": "/products/:id"}]}]}"#.utf8))
        let report = await Self.doctor(transport).checkCampaign(campaign)
        // Two requests: the doubled link was resolved once, and the policy refused the http one unsent.
        #expect(requests.withTrackedLock { $0 }.count == 2)

        let resolved = try link(report, "https://news.example.com/pub/acc?_ri_=1")
        #expect(resolved.deepLink == "example-app://products/1")
        #expect(resolved.webLink == "https://www.example.com/products/1")
        #expect(resolved.route == "/products/:id")
        #expect(resolved.findings.isEmpty)

        let blank = try link(report, "https://news.example.com/pub/acc?_ri_=null")
        #expect(blank.findings.map(\.code) == [.linkNullDeepLink, .linkUnroutable])
        #expect(blank.deepLink == nil)
        #expect(blank.webLink == "https://www.example.com/sale")

        let failed = try link(report, "http://news.example.com/pub/acc?_ri_=3")
        #expect(failed.findings.map(\.code) == [.linkInsecure, .linkResolveFailed])
        // The policy refuses plain http before any request.
        #expect(failed.findings.last?.message.contains("[hostNotAllowed]") == true)
    }

    @Test func theAssociationFileIsFetchedFromTheBrandedDomain() async throws {
        let standIns = try StandIns()
        let host = standIns.domain
        let html = """
            <a href="https://\(host)/pub/acc?_ri_=1">app</a><a href="https://\(host)/pub/cc?_ri_=2">web</a>
            <a href="https://\(host)/pub/acc?_ri_=3">app 2</a>
            """
        let report = await standIns.doctor().checkCampaign(CampaignCheck(html: html, appIDs: [Fixtures.app]))
        #expect(report.findings.isEmpty)
        #expect(report.links.map(\.opensApp) == [true, false, true])
        #expect(report.links.map(\.kind) == [.appLink, .webLink, .appLink])
        // Fetched once for the domain.
        #expect(standIns.origin.requestCount(for: AssociationFileServer.wellKnownPath) == 1)

        standIns.files.remove(AssociationFileServer.wellKnownPath)
        let missing = await standIns.doctor().checkCampaign(CampaignCheck(html: html, appIDs: [Fixtures.app]))
        #expect(missing.findings.map(\.code) == [.aasaUnreachable])
        #expect(missing.links.map(\.opensApp) == [nil, nil, nil])
    }

    /// A `link.notBranded` message does not list every branded host: the report grows as hosts + links, not hosts x
    /// links.
    @Test func messagesNameAFewExamplesSoTheReportGrowsWithTheLinksOnly() async throws {
        let association = try AppSiteAssociation(parsing: Fixtures.responsysAASA)
        func measure(_ count: Int) async -> (total: Int, longest: Int) {
            var html = ""
            for index in 0..<count {
                html += #"<a href="https://news\#(index).example.com/pub/acc?_ri_=\#(index)">app</a>"#
                html += #"<a href="https://www.example.org/p/\#(index)">elsewhere</a>"#
            }
            let report = await Self.doctor().checkCampaign(CampaignCheck(
                html: html, appIDs: [Fixtures.app], association: association))
            let sizes = report.allFindings.map { $0.message.utf8.count + $0.subject.utf8.count }
            return (sizes.reduce(0, +), sizes.max() ?? 0)
        }
        let small = await measure(50)
        let large = await measure(400)
        // Eight times the links (and the hosts): eight times the output, not sixty-four.
        #expect(large.total < small.total * 9, "\(small) -> \(large)")
        #expect(large.longest < small.longest + 16, "\(small) -> \(large)")
        #expect(large.longest < 400)
    }

    /// Links that differ only in a fragment, the case of the scheme or host, or a trailing dot are one click, as
    /// the manager coalesces them: one request, and each link gets its answer.
    @Test func variantsOfOneClickAreResolvedOnce() async throws {
        let requests = Mutex(0)
        let transport = ClosureTransport { _, _ in
            requests.withTrackedLock { $0 += 1 }
            return TransportResponse(
                statusCode: 200, headerFields: ["Content-Type": "application/json"],
                body: Data(#"{"webLinkUrl": "https://www.example.com/p/1", "mobileDeepLinkUrl": "example-app://p/1"}"#.utf8))
        }
        let html = """
            <a href="https://news.example.com/pub/acc?_ri_=1">a</a>
            <a href="https://News.Example.COM/pub/acc?_ri_=1#top">b</a>
            <a href="HTTPS://news.example.com./pub/acc?_ri_=1">c</a>
            <a href="https://news.example.com/pub/acc?_ri_=2">another click</a>
            """
        var campaign = CampaignCheck(
            html: html, appIDs: [Fixtures.app], association: try AppSiteAssociation(parsing: Fixtures.responsysAASA),
            resolves: true, brandedDomains: ["news.example.com"])
        campaign.resolves = true
        let report = await Self.doctor(transport).checkCampaign(campaign)
        #expect(requests.withTrackedLock { $0 } == 2)
        #expect(report.links.count == 4)
        #expect(report.links.map(\.deepLink) == Array(repeating: "example-app://p/1", count: 4))
        #expect(report.allFindings.isEmpty, "\(report.allFindings)")
    }

    /// 30 hanging links with a 1 s deadline run a few at a time within one budget (three deadlines by default), not
    /// one after the other; a link not started by then is not requested at all.
    ///
    /// On a clock where time passes only by sleeping (each deadline fires at once and the clock then reads it), so
    /// the test needs no real time and holds on a loaded machine.
    @Test func resolutionsRunAFewAtATimeWithinOneOverallBudget() async throws {
        let sent = Mutex(0)
        let transport = ClosureTransport { _, _ in
            sent.withTrackedLock { $0 += 1 }
            // A Response Handler that never answers: the deadline cancels the wait.
            try await Task.sleep(for: .seconds(3600))
            return TransportResponse(statusCode: 500)
        }
        let base = ContinuousClock.now
        let elapsed = Mutex(Duration.zero)
        let clock = ClosureClock(
            now: { base + elapsed.withTrackedLock { $0 } },
            sleep: { deadline in elapsed.withTrackedLock { $0 = max($0, deadline - base) } })
        let html = (0..<30).map { #"<a href="https://news.example.com/pub/acc?_ri_=\#($0)">x</a>"# }.joined()
        let campaign = CampaignCheck(
            html: html, appIDs: [Fixtures.app], association: try AppSiteAssociation(parsing: Fixtures.responsysAASA),
            resolves: true)
        let doctor = LinkDoctor(configuration: .init(timeout: .seconds(1)), transport: transport, clock: clock)
        let report = await doctor.checkCampaign(campaign)
        let messages = report.links.compactMap { $0.findings.first { $0.code == .linkResolveFailed }?.message }
        #expect(messages.count == 30)
        let timedOut = messages.filter { $0.hasPrefix("The resolution failed [timeout]: no answer within 1 s") }.count
        let notStarted = messages.filter { $0.hasPrefix("Not resolved [budget]") }.count
        // Three seconds of budget, one-second deadlines, four at a time: at most twelve started, never all thirty
        // (one after the other without a budget, every link waited its deadline).
        #expect(timedOut >= 1 && timedOut <= 12, "\(timedOut)")
        #expect(timedOut + notStarted == 30)
        #expect(sent.withTrackedLock { $0 } <= timedOut)
        #expect(elapsed.withTrackedLock { $0 } <= .seconds(3))
    }

    /// A local rehearsal: with http allowed, an http link on the branded domain is judged as its https form, by
    /// the file its own domain serves over http, and a correct campaign has no finding.
    @Test func withHTTPAllowedAnHTTPLinkIsJudgedAsItsHTTPSFormByItsDomainsFile() async throws {
        let standIns = try StandIns()
        let base = "http://\(standIns.domain)"
        let html = #"<a href="\#(base)/pub/acc?_ri_=1">app</a><a href="\#(base)/pub/cc?_ri_=2">web</a>"#
        let report = await standIns.doctor().checkCampaign(CampaignCheck(html: html, appIDs: [Fixtures.app]))
        #expect(report.allFindings.isEmpty, "\(report.allFindings)")
        #expect(report.links.map(\.opensApp) == [true, false])
        #expect(standIns.origin.requestCount(for: AssociationFileServer.wellKnownPath) == 1)

        let strict = Self.doctor()
        let real = await strict.checkCampaign(CampaignCheck(html: html, appIDs: [Fixtures.app]))
        #expect(real.links.map { $0.findings.map(\.code) } == [[.linkInsecure], [.linkInsecure]])
    }

    /// A "bulletproof" button as Cerberus and most templates write it: VML for Outlook inside `<!--[if mso]>`, the
    /// HTML link for everyone else inside `<!--[if !mso]><!-->`.
    static func button(vml: String, html: String) -> String {
        """
        <div><!--[if mso]>
          <v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" href="\(vml)" style="height:40px;v-text-anchor:middle;width:200px;" arcsize="10%" stroke="f" fillcolor="#d62828">
            <w:anchorlock/><center style="color:#ffffff;">Shop now</center>
          </v:roundrect>
        <![endif]--><!--[if !mso]><!-->
          <a href="\(html)" style="background:#d62828;color:#ffffff;display:inline-block;">Shop now</a>
        <!--<![endif]--></div>
        """
    }

    @Test func anOutlookOnlyLinkIsListedApartAndNeverJudgedAsAnAppLink() async throws {
        let link = "https://news.example.com/pub/acc?_ri_=X0Gzc2X%3D1&amp;_ei_=E"
        let closed = try AppSiteAssociation(parsing: #"{"applinks": {"details": [{"appIDs": ["\#(Fixtures.app)"], "components": [{"/": "/shop/*"}]}]}}"#)
        let report = await Self.doctor().checkCampaign(CampaignCheck(
            html: Self.button(vml: link, html: link), appIDs: [Fixtures.app], association: closed))
        #expect(report.links.map(\.kind) == [.outlookOnly, .appLink])
        #expect(report.links.map(\.url) == Array(repeating: "https://news.example.com/pub/acc?_ri_=X0Gzc2X%3D1&_ei_=E", count: 2))
        // The phone link is judged (and here does not open the app); the Outlook one is not judged at all.
        #expect(report.links[1].findings.map(\.code) == [.linkAppLinkNotOpening])
        #expect(report.links[0].findings.isEmpty)
        #expect(report.links[0].opensApp == nil)
        #expect(report.findings.isEmpty)
    }

    @Test(arguments: [
        // Another `_ri_`, another path, another host: Outlook readers go elsewhere.
        ("https://news.example.com/pub/acc?_ri_=X0Gzc2X%3D2&amp;_ei_=E", true),
        ("https://news.example.com/pub/cc?_ri_=X0Gzc2X%3D1&amp;_ei_=E", true),
        ("https://offers.example.com/pub/acc?_ri_=X0Gzc2X%3D1&amp;_ei_=E", true),
        // The same click with another `_ei_`, or the host in another case: the same destination.
        ("https://news.example.com/pub/acc?_ri_=X0Gzc2X%3D1&amp;_ei_=F", false),
        ("https://NEWS.example.com/pub/acc?_ei_=E&amp;_ri_=X0Gzc2X%3D1", false),
        // Not a tracking link: nothing to compare.
        ("https://www.example.com/shop", false),
    ])
    func anOutlookOnlyTrackingLinkThatNoPhoneLinkMatchesIsWarnedAbout(_ vml: String, _ differs: Bool) async throws {
        let html = "https://news.example.com/pub/acc?_ri_=X0Gzc2X%3D1&amp;_ei_=E"
        let report = await Self.doctor().checkCampaign(CampaignCheck(
            html: Self.button(vml: vml, html: html), appIDs: [Fixtures.app],
            association: try AppSiteAssociation(parsing: Fixtures.responsysAASA)))
        let outlook = try #require(report.links.first { $0.kind == .outlookOnly })
        #expect(outlook.findings.map(\.code) == (differs ? [.linkOutlookOnlyDiffers] : []))
        #expect(outlook.findings.allSatisfy { $0.severity == .warning && $0.subject == outlook.url })
        #expect(report.links.filter { $0.kind != .outlookOnly }.allSatisfy { $0.findings.isEmpty })
    }

    @Test(arguments: [
        ("<!--[if mso]><a href=\"https://o.example/\">x</a><![endif]-->", true),
        ("<!--[if gte mso 9]><a href=\"https://o.example/\">x</a><![endif]-->", true),
        ("<!--[if (gte mso 9)|(IE)]><a href=\"https://o.example/\">x</a><![endif]-->", true),
        ("<!--[IF MSO 16]><area href=\"https://o.example/\"><![ENDIF]-->", true),
        // Hidden from Outlook and from browsers: no one sees it.
        ("<!--[if !mso]><a href=\"https://o.example/\">x</a><![endif]-->", false),
        ("<!--[if IE]><a href=\"https://o.example/\">x</a><![endif]-->", false),
        ("<!--[if mso 13]><a href=\"https://o.example/\">x</a><![endif]-->", false),
        // An ordinary comment.
        ("<!-- <a href=\"https://o.example/\">x</a> -->", false),
    ])
    func aConditionalCommentsLinksAreOutlooksWhenItsConditionHoldsForOutlook(_ html: String, _ listed: Bool) async {
        let report = await Self.doctor().checkCampaign(CampaignCheck(html: html, appIDs: [Fixtures.app]))
        #expect(report.links.map(\.kind) == (listed ? [.outlookOnly] : []))
        #expect(report.links.map(\.url) == (listed ? ["https://o.example/"] : []))
    }
}
