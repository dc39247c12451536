import AssociatedDomains
import Foundation
import UniversalLinkKit

extension LinkDoctor {
    /// Checks a domain's association files as devices and Apple see them.
    ///
    /// Fetches `/.well-known/apple-app-site-association` and `/apple-app-site-association` from the domain (the
    /// first that answers `200` is the file, as on iOS), the same file again as Apple's fetcher
    /// (`AASA-Bot/1.0.0`), Apple's CDN copy at `BASE/a/v1/DOMAIN`, and `/.well-known/assetlinks.json` when
    /// ``DomainCheck/androidPackage`` is set. No redirect is followed.
    ///
    /// Reporting rules: when the well-known location serves the file, the root location is not reported on; when
    /// only the root location does, `aasa.wellKnownMissing` is a warning, and the well-known location's answer is
    /// an error only when it is a redirect or a status other than 404/410 (something is configured there, and
    /// wrongly). When neither serves it, each location's redirect or status is reported, then `aasa.unreachable`.
    ///
    /// The domain's host is compared and requested lower-cased, without one trailing dot (`News.Example.com.` is
    /// checked, and looked up on Apple's CDN, as `news.example.com`); a port is kept.
    ///
    /// - Parameter check: The domain and what to expect of it.
    /// - Returns: The findings, in the order the checks ran; empty for a clean domain.
    public func checkDomain(_ check: DomainCheck) async -> [Finding] {
        var check = check
        check.domain = Self.normalizedDomain(check.domain)
        let base = "\(originScheme)://\(check.domain)"
        guard !check.domain.isEmpty, !check.domain.contains("/"),
              let wellKnown = URL(string: base + "/.well-known/apple-app-site-association"),
              let root = URL(string: base + "/apple-app-site-association"),
              let host = wellKnown.host(percentEncoded: true), !host.isEmpty
        else {
            return [Finding(
                code: .aasaUnreachable, severity: .error, subject: check.domain,
                message: "'\(check.domain)' is not a domain name (give the host of the links, such as news.example.com).")]
        }
        let cap = Self.aasaSizeLimit + 1
        async let cdnAnswer = fetchCDNCopy(of: check.domain)
        // The domain's HTTPS first: when its certificate is reported, its files are still read (without
        // verification) and judged, instead of being called unreachable.
        let tls = await inspectTLS(of: check.domain)
        let fetcher = originFetcher(after: tls)
        async let wellKnownAnswer = fetcher.fetch(wellKnown, userAgent: configuration.userAgent, maxBodyBytes: cap)
        async let rootAnswer = fetcher.fetch(root, userAgent: configuration.userAgent, maxBodyBytes: cap)
        async let androidFindings = checkAssetLinks(check, base: base, fetcher: fetcher)

        var findings: [Finding] = tls?.findings ?? []
        let origin = locate(
            wellKnown: (wellKnown, Answer(await wellKnownAnswer)), root: (root, Answer(await rootAnswer)),
            into: &findings)
        var association: AppSiteAssociation?
        if let origin {
            association = inspect(origin, check: check, host: host, into: &findings)
            await checkBot(origin, association: association, fetcher: fetcher, into: &findings)
        }
        findings += compareCDN(await cdnAnswer, origin: association)
        findings += await androidFindings
        return findings
    }

    /// Which location serves the file; reports the locations' problems by the rules of ``checkDomain(_:)``.
    private func locate(
        wellKnown: (url: URL, answer: Answer), root: (url: URL, answer: Answer), into findings: inout [Finding]
    ) -> (url: URL, answer: Answer)? {
        if case .file = wellKnown.answer { return wellKnown }
        if case .tooLarge(let part) = wellKnown.answer, case .file = root.answer {
            // An answer over the cap is unreadable, whatever made it so: say which part, and still check the file
            // the root location serves, instead of hiding it behind the unreadable one.
            findings.append(Self.oversize(part, "aasa", wellKnown.url, then: "\(root.url.absoluteString) serves a "
                + "file, checked below: serve that one at \(wellKnown.url.path())."))
            return root
        }
        if wellKnown.answer.servesFile { return wellKnown }
        if root.answer.servesFile {
            findings.append(Finding(
                code: .aasaWellKnownMissing, severity: .warning, subject: wellKnown.url.absoluteString,
                message: "Only \(root.url.absoluteString) serves the file; \(wellKnown.url.absoluteString) "
                    + "\(wellKnown.answer.summary). Apple reads /.well-known/ first: serve the file there too."))
            if case .redirect = wellKnown.answer {
                findings += locationProblems("aasa", wellKnown.url, wellKnown.answer)
            } else if case .status(let status) = wellKnown.answer, status != 404, status != 410 {
                findings += locationProblems("aasa", wellKnown.url, wellKnown.answer)
            }
            return root
        }
        findings += locationProblems("aasa", wellKnown.url, wellKnown.answer)
        findings += locationProblems("aasa", root.url, root.answer)
        findings.append(Finding(
            code: .aasaUnreachable, severity: .error, subject: wellKnown.url.absoluteString,
            message: "Neither location serves the file: \(wellKnown.url.absoluteString) \(wellKnown.answer.summary); "
                + "\(root.url.absoluteString) \(root.answer.summary). Serve it with status 200, over https, without "
                + "redirects, at \(wellKnown.url.path()); until then every link opens the browser."))
        return nil
    }

    /// `PREFIX.tooLarge` or `PREFIX.headersTooLarge` for a location whose answer went over a cap.
    static func oversize(_ part: Answer.Oversize, _ prefix: String, _ url: URL, then: String) -> Finding {
        let subject = url.absoluteString
        switch part {
        case .headerBlock:
            return Finding(
                code: Finding.Code("\(prefix).headersTooLarge"), severity: .error, subject: subject,
                message: "\(subject) answers with a header block over the transport's cap, so its body is never read "
                    + "(whatever its size); look for a server or CDN rule that adds huge headers or cookies. \(then)")
        case .body:
            let limit = prefix == "aasa" ? "Apple's limit of 128 KB (\(aasaSizeLimit) bytes)" : "the 1 MiB read cap"
            return Finding(
                code: Finding.Code("\(prefix).tooLarge"), severity: .error, subject: subject,
                message: "\(subject) answers with a body over \(limit); no device reads it. \(then)")
        }
    }

    /// `PREFIX.redirect` or `PREFIX.status` for a location that answered but not with the file.
    func locationProblems(_ prefix: String, _ url: URL, _ answer: Answer) -> [Finding] {
        switch answer {
        case .redirect(let status, let location):
            let target = location.map { "to \($0)" } ?? "without a Location"
            let who = prefix == "aasa" ? "iOS and Apple's CDN do" : "Android does"
            return [Finding(
                code: Finding.Code("\(prefix).redirect"), severity: .error, subject: url.absoluteString,
                message: "\(url.absoluteString) answers \(status) \(target); \(who) not follow redirects: serve the "
                    + "file itself at this URL with status 200.")]
        case .status(let status):
            return [Finding(
                code: Finding.Code("\(prefix).status"), severity: .error, subject: url.absoluteString,
                message: "\(url.absoluteString) answers status \(status) instead of 200 with the file.")]
        case .file, .tooLarge, .failed, .refused:
            return []
        }
    }

    /// Size, content type, lint, app IDs and expectations of the served file; returns it parsed when it reads.
    private func inspect(
        _ origin: (url: URL, answer: Answer), check: DomainCheck, host: String, into findings: inout [Finding]
    ) -> AppSiteAssociation? {
        let subject = origin.url.absoluteString
        if case .tooLarge(.headerBlock) = origin.answer {
            findings.append(Self.oversize(.headerBlock, "aasa", origin.url, then: "Until then every link opens the browser."))
            return nil
        }
        guard case .file(let response) = origin.answer, response.body.count <= Self.aasaSizeLimit else {
            findings.append(Finding(
                code: .aasaTooLarge, severity: .error, subject: subject,
                message: "\(subject) is over Apple's limit of 128 KB (\(Self.aasaSizeLimit) bytes); iOS ignores "
                    + "the whole file. Merge rules with wildcards or move paths into components."))
            return nil
        }
        if let finding = contentTypeProblem("aasa", origin.url, response) { findings.append(finding) }
        for diagnostic in AppSiteAssociation.check(response.body) {
            let place = diagnostic.keyPath.isEmpty ? "" : "\(diagnostic.keyPath): "
            findings.append(Finding(
                code: diagnostic.severity == .error ? .aasaInvalid : .aasaLint,
                severity: diagnostic.severity == .error ? .error : .warning, subject: subject,
                message: "\(place)\(diagnostic.message) [\(diagnostic.code)]"))
        }
        guard let association = try? AppSiteAssociation(parsing: response.body) else { return nil }
        let details = association.applinks?.details ?? []
        var present: [String] = []
        for appID in check.appIDs {
            if details.contains(where: { $0.modernAppIDs.contains(appID) }) {
                present.append(appID)
            } else {
                let named = details.flatMap(\.modernAppIDs)
                findings.append(Finding(
                    code: .aasaAppMissing, severity: .error, subject: subject,
                    message: "No applinks detail names \(appID) (the file names "
                        + "\(named.isEmpty ? "no app" : Self.examples(named))); add a detail with "
                        + "\"appIDs\": [\"\(appID)\"], or fix the team ID or bundle identifier."))
            }
        }
        findings += expectations(check, association: association, appIDs: present, host: host)
        return association
    }

    private func expectations(
        _ check: DomainCheck, association: AppSiteAssociation, appIDs: [String], host: String
    ) -> [Finding] {
        var open = check.expectOpen
        var web = check.expectWeb
        if check.expectsResponsysPaths {
            open.append("https://\(check.domain)/pub/acc")
            web.append("https://\(check.domain)/pub/cc")
        }
        guard !open.isEmpty || !web.isEmpty else { return [] }
        let matcher = AppLinkMatcher(association)
        var findings: [Finding] = []
        for (urls, shouldOpen) in [(open, true), (web, false)] {
            for url in urls {
                for appID in appIDs {
                    let match = matcher.explain(url, appID: appID, domain: host)
                    guard (match.outcome == .match) != shouldOpen else { continue }
                    let expected = shouldOpen ? "should open \(appID) but opens the browser"
                        : "should open the web but opens \(appID)"
                    findings.append(Finding(
                        code: .aasaExpectationFailed, severity: .error, subject: url,
                        message: "\(url) \(expected): \(match.explanation)"))
                }
            }
        }
        return findings
    }

    /// Fetches the served location again as Apple's fetcher and reports a different answer.
    private func checkBot(
        _ origin: (url: URL, answer: Answer), association: AppSiteAssociation?, fetcher: AssociationFetcher,
        into findings: inout [Finding]
    ) async {
        let bot = Answer(await fetcher.fetch(
            origin.url, userAgent: configuration.appleBotUserAgent, maxBodyBytes: Self.aasaSizeLimit + 1))
        let same: Bool
        switch (origin.answer, bot) {
        case (.file(let ordinary), .file(let apple)):
            if let association, let other = try? AppSiteAssociation(parsing: apple.body) {
                same = Self.sameRules(association, other)
            } else {
                same = ordinary.body == apple.body
            }
        case (.tooLarge, .tooLarge):
            same = true
        default:
            same = false
        }
        guard !same else { return }
        let what = bot.servesFile ? "answers 200 with a different file" : bot.summary
        findings.append(Finding(
            code: .aasaBotBlocked, severity: .error, subject: origin.url.absoluteString,
            message: "\(origin.url.absoluteString) \(what) to Apple's fetcher (User-Agent: "
                + "\(configuration.appleBotUserAgent)), unlike to an ordinary client; Apple's CDN then has no "
                + "correct file for devices. Look for a firewall or bot-protection rule that blocks it."))
    }

    /// The CDN copy's URL and answer; `nil` answer when no URL can be formed.
    /// `HOST[:PORT]` with the host lower-cased and one trailing dot dropped (an IPv6 literal keeps its brackets).
    static func normalizedDomain(_ domain: String) -> String {
        var host = Substring(domain)
        var port: Substring = ""
        if domain.hasPrefix("["), let close = domain.firstIndex(of: "]") {
            host = domain[...close]
            port = domain[domain.index(after: close)...]
        } else if let colon = domain.lastIndex(of: ":") {
            host = domain[..<colon]
            port = domain[colon...]
        }
        return normalizedHost(String(host)) + port
    }

    private func fetchCDNCopy(of domain: String) async -> (url: String, answer: Answer, explanation: String?) {
        var base = configuration.appleCDNBaseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let text = "\(base)/a/v1/\(domain)"
        guard let url = URL(string: text) else { return (text, .failed("not a URL"), nil) }
        let fetcher = configuration.caFile.map { trustingFetcher(caFile: $0) } ?? self.fetcher
        let outcome = await fetcher.fetch(url, userAgent: configuration.userAgent, maxBodyBytes: Self.aasaSizeLimit + 1)
        // Apple's CDN says why it has no copy in two answer headers (as its own validator shows them).
        var explanation: String?
        if case .answered(let response) = outcome {
            let parts = ["Apple-Failure-Reason", "Apple-Failure-Details"].compactMap { name in
                response.headerField(name).map { "\(name): \($0)" }
            }
            if !parts.isEmpty { explanation = parts.joined(separator: "; ") }
        }
        return (text, Answer(outcome), explanation)
    }

    private func compareCDN(_ cdn: (url: String, answer: Answer, explanation: String?), origin: AppSiteAssociation?) -> [Finding] {
        guard case .file(let response) = cdn.answer else {
            let said = cdn.explanation.map { " Apple's CDN says: \($0)." } ?? ""
            return [Finding(
                code: .aasaCdnUnavailable, severity: .warning, subject: cdn.url,
                message: "Apple's CDN has no copy: \(cdn.url) \(cdn.answer.summary).\(said) Devices get the file from "
                    + "the CDN only; it fetches the domain's file (as AASA-Bot) some time after the app is "
                    + "installed or the file changes. Check that the file is reachable, then look again later.")]
        }
        guard let origin else { return [] }
        guard let copy = try? AppSiteAssociation(parsing: response.body) else {
            return [Finding(
                code: .aasaCdnMismatch, severity: .warning, subject: cdn.url,
                message: "Apple's CDN copy at \(cdn.url) cannot be read as an association file, unlike the "
                    + "domain's; devices use the CDN's until it refreshes.")]
        }
        guard !Self.sameRules(origin, copy) else { return [] }
        return [Finding(
            code: .aasaCdnMismatch, severity: .warning, subject: cdn.url,
            message: "Apple's CDN copy at \(cdn.url) has other rules than the domain's file "
                + "(\(Self.ruleSummary(copy)) on the CDN, \(Self.ruleSummary(origin)) at the origin); devices use "
                + "the CDN's until it refreshes, so a recent change is not live yet.")]
    }

    /// Whether two files say the same to devices: the parsed sections, not the bytes (diagnostics aside).
    static func sameRules(_ lhs: AppSiteAssociation, _ rhs: AppSiteAssociation) -> Bool {
        lhs.applinks == rhs.applinks && lhs.webcredentials == rhs.webcredentials && lhs.appclips == rhs.appclips
            && lhs.activitycontinuation == rhs.activitycontinuation
    }

    private static func ruleSummary(_ association: AppSiteAssociation) -> String {
        let details = association.applinks?.details ?? []
        let rules = details.reduce(0) { $0 + $1.modernRules.count }
        return "\(details.count) detail\(details.count == 1 ? "" : "s"), \(rules) rule\(rules == 1 ? "" : "s")"
    }

    /// `PREFIX.contentType` when the answer is not `application/json`.
    func contentTypeProblem(_ prefix: String, _ url: URL, _ response: TransportResponse) -> Finding? {
        let raw = response.headerField("Content-Type")
        let media = raw?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard media != "application/json" else { return nil }
        return Finding(
            code: Finding.Code("\(prefix).contentType"), severity: .warning, subject: url.absoluteString,
            message: "\(url.absoluteString) is served as \(raw.map { "'\($0)'" } ?? "no Content-Type"), not "
                + "application/json; serve it as application/json (some fetchers refuse other types).")
    }
}
