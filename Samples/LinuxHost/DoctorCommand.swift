import AssociatedDomains
import Foundation
import LinkDoctor
import LinkRouting
import UniversalLinkKit

/// `linux-host doctor domain ...` and `linux-host doctor campaign ...` (LinkDoctor, issue 13).
///
/// Exit status: 0 without errors (warnings allowed), 1 with errors, 2 for a usage error or an unreadable input
/// file. Output: see ``DoctorOutput``.
enum DoctorCommand {
    static let command = Command(
        name: "doctor",
        summary: "Checks a domain's association files live, or pre-flights an email's links before it is sent.",
        subcommands: [domain, campaign])

    /// Options both sub-commands take.
    static let common: [CommandOption] = [
        .valued("timeout", "SECONDS", "deadline of each request, in decimal seconds (0.001 to 3600)", default: "10"),
        .flag("allow-loopback", "allow IP-address and localhost hosts and any port (local stand-ins)"),
        .flag("allow-http", "fetch over plain http (local stand-ins)"),
        .flag("json", "print one JSON object per line instead of text"),
        .valued("junit", "FILE", "also write a JUnit XML report to FILE (a regular file; checked before any request)"),
    ]

    static let domain = Command(
        name: "domain",
        summary: "Checks what devices and Apple's CDN see for a domain: both AASA locations, the AASA-Bot answer, "
            + "the CDN copy and Android's assetlinks.json.",
        details: """
            DOMAIN may carry a port from 1 to 65535 (127.0.0.1:8443) with --allow-loopback; its host is
            checked, and looked up on Apple's CDN, lower-cased and without a trailing dot. Exit status: 0
            without errors (warnings allowed), 1 with errors, 2 for a usage error.
            """,
        arguments: [CommandArgument("DOMAIN", "the branded domain, as in the links (news.example.com)")],
        options: [
            .valued("app", "TEAMID.BUNDLE", "an app the file must name", repeatable: true, required: true),
            .flag("responsys", "expect /pub/acc to open the app and /pub/cc not to"),
            .valued("expect-open", "URL", "a URL that must open the app", repeatable: true),
            .valued("expect-web", "URL", "a URL that must open the web", repeatable: true),
            .valued("android-package", "P", "check /.well-known/assetlinks.json for this package"),
            .valued("fingerprint", "SHA256", "a signing-certificate fingerprint the package's statement must list",
                    repeatable: true),
            .valued("apple-cdn", "BASE_URL", "Apple's CDN base URL", default: LinkDoctor.appleCDN.absoluteString),
        ] + common,
        run: { parsed throws(UsageError) in try await runDomain(parsed) })

    static let campaign = Command(
        name: "campaign",
        summary: "Pre-flights an HTML email: what each link will do on a device (custom schemes, http, app links "
            + "that will not open the app, web links that will; with --resolve, null deep links and routes).",
        details: """
            --resolve resolves each distinct app link once, which counts a click. Without --aasa the association
            file is fetched from each branded domain; without --branded-domain the branded domains are the hosts
            of the email's /pub/acc and /pub/cc links. With --manifest, each link is also judged as Android 15+
            decides (assetlinks.json from --assetlinks, or fetched from each branded domain as Android's verifier
            fetches it), and a link the platforms disagree on is an error. Exit status: 0 without errors (warnings allowed), 1 with
            errors, 2 for a usage error or an unreadable input file.
            """,
        options: [
            .valued("email", "FILE", "the email's HTML", required: true),
            .valued("app", "TEAMID.BUNDLE", "the app the app links must open", repeatable: true, required: true),
            .valued("aasa", "FILE", "the association file to judge the links by (default: fetched)"),
            .valued("routes", "TABLE", "a JSON route table the resolved links must match (with --resolve)"),
            .flag("resolve", "resolve each distinct app link once (counts a click)"),
            .valued("branded-domain", "HOST", "a branded domain, or *.example.com", repeatable: true),
            .valued("manifest", "FILE", "the app's AndroidManifest.xml: also judge each link as Android does"),
            .valued("assetlinks", "FILE", "the branded domain's assetlinks.json (with --manifest; default: fetched)"),
            .valued("package", "NAME", "the Android application ID (default: the manifest's package)"),
            .valued("html", "FILE", "also write a self-contained HTML report to FILE"),
        ] + common,
        run: { parsed throws(UsageError) in try await runCampaign(parsed) })

    /// The doctor's settings from the command line; read before anything is fetched, so a bad value is a usage
    /// error with nothing sent.
    private static func configuration(_ parsed: ParsedCommand, cdn: URL = LinkDoctor.appleCDN) throws(UsageError)
        -> LinkDoctor.Configuration
    {
        let timeout = try parsed.value("timeout", as: .seconds(in: 0.001...3600)) ?? .seconds(10)
        let policy = ResolutionPolicy(allowsHTTP: parsed.has("allow-http"), allowsLocalHosts: parsed.has("allow-loopback"))
        return LinkDoctor.Configuration(timeout: timeout, policy: policy, appleCDNBaseURL: cdn)
    }

    /// Runs `body` with a doctor on the resolver's default transport (`CurlTransport` on Linux: it never re-sends
    /// a request by itself, so `--resolve` counts each click once), and releases the transport afterwards.
    private static func withDoctor<Result>(
        _ configuration: LinkDoctor.Configuration, _ body: (LinkDoctor) async -> Result
    ) async -> Result {
        let transport = LinkResolver.defaultTransport()
        defer { transport.shutdown() }
        return await body(LinkDoctor(configuration: configuration, transport: transport))
    }

    private static func appIDs(_ parsed: ParsedCommand) throws(UsageError) -> [String] {
        try parsed.values("app", as: ValueReader { raw in
            let parts = raw.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !raw.contains(where: \.isWhitespace) else {
                return .failure(UsageError("expected an app ID TEAMID.bundle.identifier, got '\(raw)'"))
            }
            return .success(raw)
        })
    }

    private static let absoluteURL = ValueReader<String> { raw in
        guard let url = URL(string: raw), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              url.host(percentEncoded: true)?.isEmpty == false
        else { return .failure(UsageError("expected an absolute http(s) URL, got '\(raw)'")) }
        return .success(raw)
    }

    /// `DOMAIN`: a host, with an optional `:PORT` from 1 to 65535 (whether a port is allowed is `runDomain`'s
    /// call: only with --allow-loopback).
    private static let domainName = ValueReader<(host: String, port: Int?)> { raw in
        let expected = "expected a domain such as news.example.com (a port is allowed with --allow-loopback), got '\(raw)'"
        let forbidden = CharacterSet(charactersIn: "/@?# \t\\").union(.controlCharacters)
        guard !raw.isEmpty, !raw.hasPrefix("-"), raw.rangeOfCharacter(from: forbidden) == nil,
              URL(string: "https://\(raw)/")?.host(percentEncoded: true)?.isEmpty == false
        else { return .failure(UsageError(expected)) }
        // The port follows the last ':' outside an IPv6 literal's brackets.
        let afterBrackets = raw.lastIndex(of: "]").map { raw.index(after: $0) } ?? raw.startIndex
        guard let colon = raw[afterBrackets...].lastIndex(of: ":") else { return .success((raw, nil)) }
        let digits = raw[raw.index(after: colon)...]
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }), let port = Int(digits),
              (1...65535).contains(port)
        else { return .failure(UsageError("expected a port from 1 to 65535 after the host, got '\(digits)' in '\(raw)'")) }
        return .success((String(raw[..<colon]), port))
    }

    static func runDomain(_ parsed: ParsedCommand) async throws(UsageError) -> Int32 {
        // Before anything is fetched: a report path that cannot work is a usage error, not a failure at the end.
        let junit = try parsed.value("junit", as: .outputFile)
        let (host, port) = try parsed.positional(0, as: domainName, called: "DOMAIN")
        if let port, !parsed.has("allow-loopback") {
            throw UsageError("DOMAIN: a port (\(host):\(port)) is for local stand-ins only: add --allow-loopback, or give "
                + "the domain as the links name it")
        }
        let domain = port.map { "\(host):\($0)" } ?? host
        var check = DomainCheck(domain: domain, appIDs: try appIDs(parsed))
        check.expectOpen = try parsed.values("expect-open", as: absoluteURL)
        check.expectWeb = try parsed.values("expect-web", as: absoluteURL)
        check.expectsResponsysPaths = parsed.has("responsys")
        check.androidPackage = parsed.value("android-package")
        check.fingerprints = parsed.values("fingerprint")
        if !check.fingerprints.isEmpty, check.androidPackage == nil {
            throw UsageError("--fingerprint needs --android-package")
        }
        if let package = check.androidPackage {
            do {
                // A fingerprint that is not one is the doctor's finding; only the package name is a usage error.
                _ = try AssetLinks(packageName: package, fingerprints: [String(repeating: "00", count: 32)])
            } catch {
                throw UsageError("--android-package: \(error.message)")
            }
        }
        let cdn = try parsed.value("apple-cdn", as: absoluteURL).flatMap { URL(string: $0) } ?? LinkDoctor.appleCDN
        let configuration = try configuration(parsed, cdn: cdn)
        let findings = await withDoctor(configuration) { await $0.checkDomain(check) }
        let output = DoctorOutput(suite: "doctor domain \(domain)", cases: domainCases(findings, android: check.androidPackage != nil))
        return output.emit(json: parsed.has("json"), junit: junit)
    }

    /// One JUnit case per check of `doctor domain`.
    private static func domainCases(_ findings: [Finding], android: Bool) -> [DoctorOutput.Case] {
        var names = ["association file", "expected URLs", "Apple's fetcher (AASA-Bot)", "Apple's CDN copy"]
        if android { names.append("assetlinks.json") }
        func check(of finding: Finding) -> String {
            switch finding.code {
            case .aasaExpectationFailed: "expected URLs"
            case .aasaBotBlocked: "Apple's fetcher (AASA-Bot)"
            case .aasaCdnMismatch, .aasaCdnUnavailable: "Apple's CDN copy"
            case _ where finding.code.rawValue.hasPrefix("assetlinks."): "assetlinks.json"
            default: "association file"
            }
        }
        return names.map { name in DoctorOutput.Case(name: name, findings: findings.filter { check(of: $0) == name }) }
    }

    static func runCampaign(_ parsed: ParsedCommand) async throws(UsageError) -> Int32 {
        // Before anything is fetched or resolved (a resolution counts a click): see `runDomain`.
        let junit = try parsed.value("junit", as: .outputFile)
        guard let email = try parsed.value("email", as: .regularFile(maximumSize: 16 << 20)) else {
            throw UsageError("--email FILE is required")
        }
        var campaign = CampaignCheck(html: String(decoding: email.bytes, as: UTF8.self), appIDs: try appIDs(parsed))
        if let file = try parsed.value("aasa", as: .regularFile(maximumSize: 8 << 20)) {
            do {
                campaign.association = try AppSiteAssociation(parsing: file.bytes)
            } catch {
                throw UsageError("--aasa: '\(file.path)': \(error.message)")
            }
        }
        if let file = try parsed.value("routes", as: .regularFile(maximumSize: 8 << 20)) {
            do {
                campaign.routeTable = try RouteTable(json: Data(file.bytes))
            } catch {
                throw UsageError("--routes: '\(file.path)': \(error)")
            }
        }
        campaign.resolves = parsed.has("resolve")
        campaign.brandedDomains = try parsed.values("branded-domain", as: .host)
        let html = try parsed.value("html", as: .outputFile)
        campaign.android = try CampaignAndroid.matcher(parsed)
        let configuration = try configuration(parsed)
        let report = await withDoctor(configuration) { await $0.checkCampaign(campaign) }
        if let html, let failure = html.write(Array(report.html(title: email.path).utf8)) {
            Console.err("linux-host: doctor campaign: \(failure)")
            return 1
        }
        var cases: [DoctorOutput.Case] = []
        if !report.findings.isEmpty { cases.append(.init(name: "branded domains and association files", findings: report.findings)) }
        cases += report.links.map { DoctorOutput.Case(name: $0.url, findings: $0.findings) }
        let output = DoctorOutput(
            suite: "doctor campaign \(email.path)", cases: cases, links: report.links, generalFindings: report.findings)
        return output.emit(json: parsed.has("json"), junit: junit)
    }
}
