import AssociatedDomains
import Foundation
import LinkDoctor
import LinkRouting
import UniversalLinkKit

/// `linux-host doctor domain ...` and `linux-host doctor campaign ...` (LinkDoctor).
///
/// Exit status: 0 without errors (warnings allowed), 1 with errors, 2 for a usage error or an unreadable input
/// file. Output: see ``DoctorOutput``.
enum DoctorCommand {
    static let command = Command(
        name: "doctor",
        summary: "Checks a domain's association files live, or pre-flights an email's links before it is sent.",
        subcommands: [domain, campaign])

    /// Options both sub-commands take, each declared once with its default.
    enum CommonOptions {
        static let timeout = OptionKey.value(
            "timeout", "SECONDS", "deadline of each request, in decimal seconds (0.001 to 3600)",
            as: .seconds(in: 0.001...3600), default: .seconds(10), shown: "10")
        static let allowLoopback = OptionKey.flag(
            "allow-loopback", "allow IP-address and localhost hosts and any port (local stand-ins)")
        static let allowHTTP = OptionKey.flag("allow-http", "fetch over plain http (local stand-ins)")
        static let json = OptionKey.flag("json", "print one JSON object per line instead of text")
        static let junit = OptionKey.optional(
            "junit", "FILE", "also write a JUnit XML report to FILE (a regular file; checked before any request)",
            as: .outputFile)
        static let html = OptionKey.optional(
            "html", "FILE", "also write a self-contained HTML report to FILE (a regular file; checked before any request)",
            as: .outputFile)
        static let caFile = OptionKey.optional(
            "ca-file", "FILE", "trust the root certificates in this PEM file instead of the system's (a private CA)",
            as: .caFile)
        static let all: [any DeclaredOption] = [timeout, allowLoopback, allowHTTP, caFile, json, junit, html]
    }

    /// The options of `doctor domain`, each declared once with its default.
    enum DomainOptions {
        static let app = OptionKey.repeatable(
            "app", "TEAMID.BUNDLE", "an app the file must name", as: appID, required: true)
        static let responsys = OptionKey.flag("responsys", "expect /pub/acc to open the app and /pub/cc not to")
        static let expectOpen = OptionKey.repeatable("expect-open", "URL", "a URL that must open the app", as: absoluteURL)
        static let expectWeb = OptionKey.repeatable("expect-web", "URL", "a URL that must open the web", as: absoluteURL)
        static let androidPackage = OptionKey.optional(
            "android-package", "P", "check /.well-known/assetlinks.json for this package", as: .string)
        static let fingerprint = OptionKey.repeatable(
            "fingerprint", "SHA256", "a signing-certificate fingerprint the package's statement must list", as: .string)
        static let appleCDN = OptionKey.value(
            "apple-cdn", "BASE_URL", "Apple's CDN base URL", as: absoluteURL.map { URL(string: $0) ?? LinkDoctor.appleCDN },
            default: LinkDoctor.appleCDN, shown: LinkDoctor.appleCDN.absoluteString)
        static let all: [any DeclaredOption] =
            [app, responsys, expectOpen, expectWeb, androidPackage, fingerprint, appleCDN] + CommonOptions.all
    }

    /// The options of `doctor campaign`, each declared once.
    enum CampaignOptions {
        static let email = OptionKey.required(
            "email", "FILE", "the email's HTML", as: .regularFile(maximumSize: 16 << 20))
        static let app = OptionKey.repeatable(
            "app", "TEAMID.BUNDLE", "the app the app links must open", as: appID, required: true)
        static let aasa = OptionKey.optional(
            "aasa", "FILE", "the association file to judge the links by (default: fetched)",
            as: .regularFile(maximumSize: 8 << 20))
        static let routes = OptionKey.optional(
            "routes", "TABLE", "a JSON route table the resolved links must match (with --resolve)",
            as: .regularFile(maximumSize: 8 << 20))
        static let resolve = OptionKey.flag("resolve", "resolve each distinct app link once (counts a click)")
        static let brandedDomain = OptionKey.repeatable(
            "branded-domain", "HOST", "a branded domain, or *.example.com", as: .host)
        static let manifest = OptionKey.optional(
            "manifest", "FILE", "the app's AndroidManifest.xml: also judge each link as Android does",
            as: .regularFile(maximumSize: AndroidCommand.maximumFileSize))
        static let assetLinks = OptionKey.optional(
            "assetlinks", "FILE", "the branded domain's assetlinks.json (with --manifest; default: fetched)",
            as: .regularFile(maximumSize: AndroidCommand.maximumFileSize))
        static let package = OptionKey.optional(
            "package", "NAME", "the Android application ID (default: the manifest's package)", as: .string)
        static let all: [any DeclaredOption] =
            [email, app, aasa, routes, resolve, brandedDomain, manifest, assetLinks, package] + CommonOptions.all
    }

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
        options: DomainOptions.all.map(\.declaration),
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
            fetches it), and a link the platforms disagree on is an error. Exit status: 0 without errors (warnings
            allowed), 1 with errors, 2 for a usage error or an unreadable input file.
            """,
        options: CampaignOptions.all.map(\.declaration),
        run: { parsed throws(UsageError) in try await runCampaign(parsed) })

    /// The doctor's settings from the command line; read before anything is fetched, so a bad value is a usage
    /// error with nothing sent.
    private static func configuration(_ parsed: ParsedCommand, cdn: URL = LinkDoctor.appleCDN) throws(UsageError)
        -> LinkDoctor.Configuration
    {
        let timeout = try parsed.value(CommonOptions.timeout)
        let policy = ResolutionPolicy(
            allowsHTTP: try parsed.value(CommonOptions.allowHTTP),
            allowsLocalHosts: try parsed.value(CommonOptions.allowLoopback))
        var configuration = LinkDoctor.Configuration(
            timeout: timeout, policy: policy, caFile: try parsed.value(CommonOptions.caFile))
        configuration.appleCDNBaseURL = cdn
        return configuration
    }

    /// Runs `body` with a doctor on the resolver's default transport (`CurlTransport` on Linux: it never re-sends
    /// a request by itself, so `--resolve` counts each click once), trusting `--ca-file`'s roots instead of the
    /// system's when it is given, and releases the transport afterwards.
    private static func withDoctor<Result>(
        _ configuration: LinkDoctor.Configuration, _ body: (LinkDoctor) async -> Result
    ) async -> Result {
        let transport: any LinkTransport = configuration.caFile.flatMap { CurlTransport.make(configuration: .init(caFile: $0)) }
            ?? LinkResolver.defaultTransport()
        defer { transport.shutdown() }
        return await body(LinkDoctor(configuration: configuration, transport: transport))
    }

    /// `TEAMID.bundle.identifier`.
    private static let appID = ValueReader<String> { raw in
        let parts = raw.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !raw.contains(where: \.isWhitespace) else {
            return .failure(UsageError("expected an app ID TEAMID.bundle.identifier, got '\(raw)'"))
        }
        return .success(raw)
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
        let junit = try parsed.value(CommonOptions.junit)
        let html = try parsed.value(CommonOptions.html)
        let (host, port) = try parsed.positional(0, as: domainName, called: "DOMAIN")
        if let port, !(try parsed.value(CommonOptions.allowLoopback)) {
            throw UsageError("DOMAIN: a port (\(host):\(port)) is for local stand-ins only: add --allow-loopback, or give "
                + "the domain as the links name it")
        }
        let domain = port.map { "\(host):\($0)" } ?? host
        var check = DomainCheck(domain: domain, appIDs: try parsed.value(DomainOptions.app))
        check.expectOpen = try parsed.value(DomainOptions.expectOpen)
        check.expectWeb = try parsed.value(DomainOptions.expectWeb)
        check.expectsResponsysPaths = try parsed.value(DomainOptions.responsys)
        check.androidPackage = try parsed.value(DomainOptions.androidPackage)
        check.fingerprints = try parsed.value(DomainOptions.fingerprint)
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
        let cdn = try parsed.value(DomainOptions.appleCDN)
        let configuration = try configuration(parsed, cdn: cdn)
        let findings = await withDoctor(configuration) { await $0.checkDomain(check) }
        let report = DomainReport(
            domain: domain, findings: findings, https: !configuration.policy.allowsHTTP, android: check.androidPackage != nil)
        if let html, !write(report.html(), to: html) { return 1 }
        // One JUnit case per check.
        let output = DoctorOutput(
            suite: "doctor domain \(domain)", cases: report.checks.map { DoctorOutput.Case(name: $0.name, findings: $0.findings) })
        return output.emit(json: try parsed.value(CommonOptions.json), junit: junit)
    }

    /// Writes an HTML report; says why on stderr when the write fails (exit 1, as for any failed write).
    private static func write(_ page: String, to file: OutputFile) -> Bool {
        guard let failure = file.write(Array(page.utf8)) else { return true }
        Console.err("linux-host: doctor: cannot write the HTML report '\(file.path)': \(failure)")
        return false
    }

    static func runCampaign(_ parsed: ParsedCommand) async throws(UsageError) -> Int32 {
        // Before anything is fetched or resolved (a resolution counts a click): see `runDomain`.
        let junit = try parsed.value(CommonOptions.junit)
        let html = try parsed.value(CommonOptions.html)
        let email = try parsed.value(CampaignOptions.email)
        var campaign = CampaignCheck(
            html: String(decoding: email.bytes, as: UTF8.self), appIDs: try parsed.value(CampaignOptions.app))
        if let file = try parsed.value(CampaignOptions.aasa) {
            do {
                campaign.association = try AppSiteAssociation(parsing: file.bytes)
            } catch {
                throw UsageError("--aasa: '\(file.path)': \(error.message)")
            }
        }
        if let file = try parsed.value(CampaignOptions.routes) {
            do {
                campaign.routeTable = try RouteTable(json: Data(file.bytes))
            } catch {
                throw UsageError("--routes: '\(file.path)': \(error)")
            }
        }
        campaign.resolves = try parsed.value(CampaignOptions.resolve)
        campaign.brandedDomains = try parsed.value(CampaignOptions.brandedDomain)
        campaign.android = try CampaignAndroid.matcher(parsed)
        let configuration = try configuration(parsed)
        let report = await withDoctor(configuration) { await $0.checkCampaign(campaign) }
        if let html, !write(report.html(title: email.path), to: html) { return 1 }
        var cases: [DoctorOutput.Case] = []
        if !report.findings.isEmpty { cases.append(.init(name: "branded domains and association files", findings: report.findings)) }
        // An Outlook-only link may repeat a phone link's URL: its case says which one it is.
        cases += report.links.map { link in
            DoctorOutput.Case(name: link.kind == .outlookOnly ? "\(link.url) (outlookOnly)" : link.url, findings: link.findings)
        }
        let output = DoctorOutput(
            suite: "doctor campaign \(email.path)", cases: cases, links: report.links, generalFindings: report.findings)
        return output.emit(json: try parsed.value(CommonOptions.json), junit: junit)
    }
}
