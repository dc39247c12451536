import AssociatedDomains
import Foundation
import LinkRouting
import UniversalLinkKit
internal import _LinkKitText

extension LinkDoctor {
    /// Schemes every mail client hands to the system itself: never stripped, never reported.
    static let nativeSchemes: Set<String> = ["mailto", "tel", "sms"]

    /// Pre-flights an email: what each of its distinct links will do on a device.
    ///
    /// Every `href` of `<a>` and `<area>` is read as a browser reads it (the WHATWG tokenizer's rules); each
    /// distinct link is reported once, in order of first appearance. Links that only Outlook on Windows renders
    /// (inside a downlevel-hidden conditional comment such as `<!--[if mso]> ... <![endif]-->`, where the VML half
    /// of a "bulletproof" button lives) are listed apart, each distinct one once, with the kind
    /// ``CampaignLink/Kind-swift.enum/outlookOnly``: phones never see them, so they are never judged as app links,
    /// but one that is a tracking link whose host, path and `_ri_` no link a phone sees has gets
    /// `link.outlookOnlyDiffers` (warning): Outlook readers would land elsewhere and count apart. Content revealed to
    /// every client but Outlook (`<!--[if !mso]><!--> ... <!--<![endif]-->`) is ordinary markup to a browser, so
    /// its links are phone links. Per link a phone sees:
    /// - relative (no scheme): `link.relative` (warning): an email has no base URL to resolve it against (`<base href>`
    ///   is not applied: Gmail, Outlook.com and most webmail drop it);
    /// - `mailto:`, `tel:`, `sms:`: nothing (clients open them natively), kind `other`;
    /// - any other non-http(s) scheme: `link.customScheme` (warning);
    /// - http(s) on another domain: `link.notBranded` (info);
    /// - on a branded domain: `link.insecure` for `http` (such a link never opens the app); for `https`, the
    ///   association file decides: `link.appLinkNotOpening` for a pub-web app link it does not open,
    ///   `link.webLinkOpensApp` for any other link it opens. When the policy allows http (a local rehearsal
    ///   against stand-ins), an `http` link is judged as its `https` form, by the file its own domain serves
    ///   over http;
    /// - with ``CampaignCheck/android``, each http(s) link on a branded domain is also judged as Android decides
    ///   (the same URL as for iOS, so a rehearsal judges the `https` form there too): `link.platformsDisagree`
    ///   when the two platforms disagree;
    /// - with ``CampaignCheck/resolves``, each click is resolved once (links that differ only in a fragment, the
    ///   case of the scheme or host, or a trailing dot are one click, as `LinkManager` coalesces them), four at a
    ///   time and all within a budget of three times ``Configuration-swift.struct/timeout``: `link.nullDeepLink`,
    ///   `link.resolveFailed` (a link not started within the budget is not requested), and with a route table
    ///   `link.unroutable`.
    ///
    /// Messages name at most a few examples of a list (the branded domains, the link hosts) and how many more:
    /// the report grows with the number of links, never with links times hosts.
    ///
    /// Hosts and branded domains compare case-insensitively, without one trailing dot (`News.Example.com.` is
    /// `news.example.com`), as the resolver's policy compares them. A given branded domain that matches no link
    /// of the email is reported in ``CampaignReport/allFindings`` (`campaign.brandedDomainUnused`, warning): it is
    /// usually misspelt, and the links it was meant for are then judged as links on another domain.
    ///
    /// - Parameter campaign: The email and what to check it against.
    /// - Returns: The links and their findings; an association file that cannot be fetched is reported in
    ///   ``CampaignReport/allFindings`` (`aasa.unreachable`), and its domain's links get `opensApp == nil`.
    public func checkCampaign(_ campaign: CampaignCheck) async -> CampaignReport {
        let recognizer = PubWebLinkRecognizer(configuration: configuration.recognizer)
        var seenByPhones: Set<String> = []
        var seenByOutlook: Set<String> = []
        let links = HTMLLinkExtractor.links(in: campaign.html).filter { link in
            link.outlookOnly ? seenByOutlook.insert(link.url).inserted : seenByPhones.insert(link.url).inserted
        }
        let hrefs = links.filter { !$0.outlookOnly }.map(\.url)
        let branded = campaign.brandedDomains.isEmpty
            ? Self.inferredBrandedDomains(hrefs, recognizer: recognizer)
            : campaign.brandedDomains.map(Self.normalizedHost)
        // Named in every `link.notBranded` message: a few, and how many, so output grows with the links only.
        let brandedNamed = branded.isEmpty ? "none found" : Self.examples(branded)
        let brandedSet = BrandedDomainSet(branded)
        var usedPatterns: Set<String> = []

        var report = CampaignReport(links: [])
        var matchers: [String: AppLinkMatcher?] = [:]
        var androidStatements = AndroidStatementCache()
        let given = campaign.association.map { AppLinkMatcher($0) }
        var toResolve: [(index: Int, url: URL)] = []

        let phoneClicks = Set(hrefs.compactMap { Self.trackingKey($0, recognizer: recognizer) })
        let phoneClickCount = hrefs.count { Self.trackingKey($0, recognizer: recognizer) != nil }

        for extracted in links {
            let href = extracted.url
            if extracted.outlookOnly {
                var link = CampaignLink(url: href, kind: .outlookOnly)
                if let url = URL(string: href), let host = url.host(percentEncoded: false).map(Self.normalizedHost) {
                    usedPatterns.formUnion(brandedSet.patterns(matching: host))
                }
                if let key = Self.trackingKey(href, recognizer: recognizer), !phoneClicks.contains(key) {
                    link.findings.append(Finding(
                        code: .linkOutlookOnlyDiffers, severity: .warning, subject: href,
                        message: "Only Outlook on Windows shows this tracking link (inside <!--[if mso]>, as the VML "
                            + "half of a button is), and none of the \(phoneClickCount) tracking links a phone sees has "
                            + "its host, path and _ri_: Outlook readers land elsewhere and their clicks count apart. "
                            + "Give it the href of the HTML link it stands for."))
                }
                report.links.append(link)
                continue
            }
            var link = CampaignLink(url: href, kind: .other)
            guard let scheme = Self.scheme(of: href) else {
                link.findings.append(Finding(
                    code: .linkRelative, severity: .warning, subject: href,
                    message: "'\(href)' is a relative link: an email has no base URL (most clients drop <base href>), "
                        + "so clients open nothing or a broken page. Write the absolute https URL."))
                report.links.append(link)
                continue
            }
            guard scheme == "http" || scheme == "https" else {
                if !Self.nativeSchemes.contains(scheme) {
                    link.findings.append(Finding(
                        code: .linkCustomScheme, severity: .warning, subject: href,
                        message: "\(scheme): links are stripped by Gmail and other clients; link to an https page "
                            + "on the branded domain (a universal link) and let it open the app."))
                }
                report.links.append(link)
                continue
            }
            guard let url = URL(string: href), let host = url.host(percentEncoded: false).map(Self.normalizedHost),
                  !host.isEmpty
            else {
                link.findings.append(Finding(
                    code: .linkMalformed, severity: .warning, subject: href,
                    message: "'\(href)' is not a URL a mail client can open; check the link's quoting and escapes."))
                report.links.append(link)
                continue
            }
            let matched = brandedSet.patterns(matching: host)
            usedPatterns.formUnion(matched)
            guard !matched.isEmpty else {
                link.findings.append(Finding(
                    code: .linkNotBranded, severity: .info, subject: href,
                    message: "\(host) is not a branded domain (\(brandedNamed)): the link is not click-tracked and "
                        + "opens the web."))
                report.links.append(link)
                continue
            }
            link.kind = recognizer.kind(of: url) == .appLink ? .appLink : .webLink
            // A local rehearsal (http allowed) stands in for the https domain: an http link is judged as its https
            // form, on both platforms, by the files its own domain serves (fetched over http, see `originScheme`).
            let judged = scheme == "http" && configuration.policy.allowsHTTP ? "https" + href.dropFirst(scheme.count) : href
            if scheme == "http", !configuration.policy.allowsHTTP {
                link.opensApp = false
                link.findings.append(Finding(
                    code: .linkInsecure, severity: .error, subject: href,
                    message: "An http link on the branded domain \(host): universal links need https, so it "
                        + "opens the browser. Use https."))
            } else {
                let authority = url.port.map { "\(host):\($0)" } ?? host
                let matcher: AppLinkMatcher?
                if let given {
                    matcher = given
                } else if let cached = matchers[authority] {
                    matcher = cached
                } else {
                    matcher = await fetchMatcher(authority, into: &report.findings)
                    matchers[authority] = .some(matcher)
                }
                if let matcher { judge(&link, judged, matcher: matcher, appIDs: campaign.appIDs) }
            }
            if let android = campaign.android {
                await judgeAndroid(&link, judged, android, statements: &androidStatements, findings: &report.findings)
            }
            if campaign.resolves, link.kind == .appLink { toResolve.append((report.links.count, url)) }
            report.links.append(link)
        }
        if !toResolve.isEmpty {
            await resolveAll(toResolve, into: &report.links, router: campaign.routeTable?.makeRouter())
        }
        if !campaign.brandedDomains.isEmpty {
            let hosts = Self.linkHosts(hrefs)
            // A newsletter may link to dozens of hosts: name a few.
            let named = hosts.isEmpty ? "no host" : Self.examples(hosts, limit: 5)
            for pattern in branded where !usedPatterns.contains(pattern) {
                report.findings.append(Finding(
                    code: .campaignBrandedDomainUnused, severity: .warning, subject: pattern,
                    message: "The branded domain \(pattern) matches no link of the email (its http(s) links are on "
                        + "\(named)); check its spelling: the links it was meant for are judged as links on another "
                        + "domain."))
            }
        }
        return report
    }

    private func judge(_ link: inout CampaignLink, _ judged: String, matcher: AppLinkMatcher, appIDs: [String]) {
        let outcomes = appIDs.map { ($0, matcher.explain(judged, appID: $0)) }
        link.opensApp = outcomes.contains { $0.1.outcome == .match }
        for (appID, match) in outcomes {
            if link.kind == .appLink, match.outcome != .match {
                link.findings.append(Finding(
                    code: .linkAppLinkNotOpening, severity: .error, subject: link.url,
                    message: "This app link opens the browser, not \(appID): \(match.explanation) "
                        + "Add its path to the association file (Responsys: /pub/acc)."))
            } else if link.kind == .webLink, match.outcome == .match {
                link.findings.append(Finding(
                    code: .linkWebLinkOpensApp, severity: .error, subject: link.url,
                    message: "This link is meant for the web but opens \(appID): \(match.explanation) "
                        + "Exclude its path in the association file (Responsys: exclude /pub/cc)."))
            }
        }
    }

    /// Resolves each click once (links with the same `ClickIdentity`, as `LinkManager` counts clicks, share one
    /// resolution), at most `Configuration.maximumConcurrentResolutions` at a time, all within
    /// `Configuration.resolutionBudget`.
    private func resolveAll(_ pending: [(index: Int, url: URL)], into links: inout [CampaignLink], router: LinkRouter?) async {
        var keys: [String] = []
        var clicks: [String: (url: URL, indices: [Int])] = [:]
        for (index, url) in pending {
            let key = ClickIdentity(url).key
            if clicks[key] == nil { keys.append(key) }
            clicks[key, default: (url, [])].indices.append(index)
        }
        let resolver = LinkResolver(
            configuration: .init(timeout: configuration.timeout, policy: configuration.policy),
            transport: transport, clock: clock)
        let budget = configuration.resolutionBudget ?? configuration.timeout * 3
        let budgetEnd = clock.now + budget
        let clock = clock
        let timeout = configuration.timeout
        var outcomes: [String: ClickOutcome] = [:]
        await withTaskGroup(of: (String, ClickOutcome).self) { group in
            var next = 0
            func startNext() {
                guard next < keys.count else { return }
                let key = keys[next]
                let url = clicks[key]?.url
                next += 1
                group.addTask {
                    let startedAt = clock.now
                    guard let url, startedAt < budgetEnd else { return (key, .notStarted) }
                    let allowed = min(timeout, budgetEnd - startedAt)
                    switch resolver.prepare(url, startedAt: startedAt, limit: budgetEnd) {
                    case let .failure(refusal):
                        return (key, .failed(refusal, allowed: allowed, cutByBudget: allowed < timeout))
                    case let .success(resolution):
                        let link = await resolver.resolve(resolution)
                        if let error = link.error, link.destinationURL == nil {
                            return (key, .failed(error, allowed: allowed, cutByBudget: allowed < timeout))
                        }
                        return (key, .resolved(link))
                    }
                }
            }
            for _ in 0..<max(1, configuration.maximumConcurrentResolutions) { startNext() }
            for await (key, outcome) in group {
                outcomes[key] = outcome
                startNext()
            }
        }
        for key in keys {
            guard let outcome = outcomes[key], let indices = clicks[key]?.indices else { continue }
            for index in indices { apply(outcome, to: &links[index], budget: budget, router: router) }
        }
    }

    /// How one click's resolution ended.
    private enum ClickOutcome: Sendable {
        case resolved(ResolvedLink)
        case failed(LinkError, allowed: Duration, cutByBudget: Bool)
        /// The budget ran out before it started: nothing was sent.
        case notStarted
    }

    private func apply(_ outcome: ClickOutcome, to link: inout CampaignLink, budget: Duration, router: LinkRouter?) {
        switch outcome {
        case .resolved(let resolved):
            link.deepLink = resolved.deepLinkURL?.absoluteString
            link.webLink = resolved.webLinkURL?.absoluteString
        case .failed(let error, let allowed, let cutByBudget) where error.code == .timeout:
            let why = cutByBudget ? "the campaign's resolution budget of \(budget.text) ran out" : "the deadline"
            link.findings.append(Finding(
                code: .linkResolveFailed, severity: .error, subject: link.url,
                message: "The resolution failed [timeout]: no answer within \(allowed.text) (\(why)); "
                    + "check that the Response Handler answers, or raise --timeout."))
            return
        case .failed(let error, _, _):
            link.findings.append(Finding(
                code: .linkResolveFailed, severity: .error, subject: link.url,
                message: "The resolution failed [\(error.code)]: \(error.message)"))
            return
        case .notStarted:
            link.findings.append(Finding(
                code: .linkResolveFailed, severity: .error, subject: link.url,
                message: "Not resolved [budget]: the campaign's resolution budget of \(budget.text) ran out "
                    + "first, so nothing was sent for this link (no click counted); raise --timeout or check fewer "
                    + "links at once."))
            return
        }
        if link.deepLink?.isEmpty ?? true {
            link.findings.append(Finding(
                code: .linkNullDeepLink, severity: .warning, subject: link.url,
                message: "mobileDeepLinkUrl came back null: the link table's app column is blank for this link, "
                    + "so the app can only open the web link \(link.webLink ?? "(none)"). Fill in the app column."))
        }
        guard let router else { return }
        let destinations = [link.deepLink, link.webLink].compactMap { $0 }.filter { !$0.isEmpty }
        guard !destinations.isEmpty else { return }
        if let matched = destinations.lazy.compactMap({ router.match($0) }).first {
            link.route = matched.expandedPattern
        } else {
            link.findings.append(Finding(
                code: .linkUnroutable, severity: .error, subject: link.url,
                message: "No route matches \(destinations.joined(separator: " nor ")); the app cannot show it. "
                    + "Add a route or fix the link table."))
        }
    }

    /// The association file of a branded authority, fetched as iOS does (well-known, then root).
    private func fetchMatcher(_ authority: String, into findings: inout [Finding]) async -> AppLinkMatcher? {
        let base = "\(originScheme)://\(authority)"
        var tried: [String] = []
        for path in ["/.well-known/apple-app-site-association", "/apple-app-site-association"] {
            guard let url = URL(string: base + path) else { continue }
            let answer = Answer(await fetcher.fetch(
                url, userAgent: configuration.userAgent, maxBodyBytes: Self.aasaSizeLimit + 1))
            if case .file(let response) = answer, let matcher = try? AppLinkMatcher(parsing: response.body) {
                return matcher
            }
            tried.append("\(url.absoluteString) \(answer.servesFile ? "serves an unreadable file" : answer.summary)")
        }
        findings.append(Finding(
            code: .aasaUnreachable, severity: .error, subject: "\(base)/.well-known/apple-app-site-association",
            message: "No association file for \(authority): \(tried.joined(separator: "; ")). Its links open the "
                + "browser; run `linux-host doctor domain \(authority)` for details, or pass --aasa FILE."))
        return nil
    }

    /// The scheme of an absolute URL (letters, digits, `+`, `-`, `.` before `:`), lower-cased; `nil` when
    /// relative.
    static func scheme(of href: String) -> String? {
        var scheme = ""
        for (offset, byte) in href.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: ":"):
                return scheme.isEmpty ? nil : scheme.lowercased()
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                scheme.append(Character(Unicode.Scalar(byte)))
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                guard offset > 0 else { return nil }
                scheme.append(Character(Unicode.Scalar(byte)))
            default:
                return nil
            }
        }
        return nil
    }

    /// What tells one tracking link's destination from another's: its host (normalised), path and `_ri_` value (as
    /// written; empty without one). `nil` for a link that is not an http(s) pub-web link.
    static func trackingKey(_ href: String, recognizer: PubWebLinkRecognizer) -> String? {
        guard let scheme = scheme(of: href), scheme == "http" || scheme == "https", let url = URL(string: href),
              recognizer.kind(of: url).isPubWeb, let host = url.host(percentEncoded: false).map(normalizedHost)
        else { return nil }
        let items = (url.query(percentEncoded: true) ?? "").split(separator: "&")
        let ri = items.first { $0.hasPrefix("_ri_=") }?.dropFirst(5) ?? ""
        return "\(host)\u{0}\(url.path(percentEncoded: true))\u{0}\(ri)"
    }

    /// The hosts of the email's pub-web links, normalised, in order of first appearance.
    static func inferredBrandedDomains(_ hrefs: [String], recognizer: PubWebLinkRecognizer) -> [String] {
        var hosts: [String] = []
        var seen: Set<String> = []
        for href in hrefs {
            guard let url = URL(string: href), recognizer.kind(of: url).isPubWeb,
                  let host = url.host(percentEncoded: false).map(normalizedHost), seen.insert(host).inserted
            else { continue }
            hosts.append(host)
        }
        return hosts
    }

    /// The distinct hosts of the email's http(s) links, normalised, in order of first appearance.
    static func linkHosts(_ hrefs: [String]) -> [String] {
        var hosts: [String] = []
        var seen: Set<String> = []
        for href in hrefs {
            guard let scheme = scheme(of: href), scheme == "http" || scheme == "https", let url = URL(string: href),
                  let host = url.host(percentEncoded: false).map(normalizedHost), !host.isEmpty,
                  seen.insert(host).inserted
            else { continue }
            hosts.append(host)
        }
        return hosts
    }

    /// A host or branded-domain pattern as compared: lower-cased, without one trailing dot (the root label).
    static func normalizedHost(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        return host
    }
}
