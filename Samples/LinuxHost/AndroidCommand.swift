import AssociatedDomains
import Foundation
internal import _LinkKitText

/// `linux-host android match|check|pattern ...` (AssociatedDomains): Android's answer, off the device.
///
/// - `android match --manifest FILE [--assetlinks FILE] [--package P] [--platform V] [--json] URL...`: one line per
///   URL, `app` or `browser`, then the reason; with `--json`, `{"url", "opensApp", "filter", "rule", "reason"}`.
///   What reading the files found (a pattern Android rejects, a key repeated in `assetlinks.json`) goes to stderr.
///   Exit 0 when the files were read, 2 when one could not be (message on stderr).
/// - `android check --manifest FILE [--assetlinks FILE] [--aasa FILE --app A] [--json] [URL...]`: the lint findings
///   (errors first, a key repeated in `assetlinks.json` among them); exit 0 without errors, 1 with errors, 2 when a
///   file cannot be read.
/// - `android pattern --type literal|prefix|simple|advanced|suffix [--json] PATTERN STRING...`: `match` or `none`
///   per string; with `--json`, `{"pattern", "type", "string", "matches"}`. Exit 0, or 2 with a message for a
///   pattern Android rejects.
enum AndroidCommand {
    static let maximumFileSize = 4 << 20

    static let command = Command(
        name: "android",
        summary: "Says whether URLs open the app on Android, from the manifest and assetlinks.json, as Android decides.",
        subcommands: [matchCommand, patternCommand, checkCommand])

    /// The options of `android match`, each declared once with its default.
    enum MatchOptions {
        static let manifest = OptionKey.required(
            "manifest", "FILE", "the AndroidManifest.xml (source or merged)", as: .regularFile(maximumSize: maximumFileSize))
        static let assetLinks = OptionKey.optional(
            "assetlinks", "FILE", "the host's assetlinks.json (statements and dynamic rules)",
            as: .regularFile(maximumSize: maximumFileSize))
        static let package = OptionKey.optional(
            "package", "NAME", "the application ID whose statement counts (default: the manifest's package)", as: .string)
        static let platform = OptionKey.value(
            "platform", "VERSION", "android15 (default), android12 (12 to 14) or android11 (11 and earlier)",
            as: ValueReader.choice(AndroidLinkMatcher.Configuration.Platform.allCases.map(\.rawValue))
                .map { AndroidLinkMatcher.Configuration.Platform(rawValue: $0) ?? .android15AndLater },
            default: .android15AndLater, shown: AndroidLinkMatcher.Configuration.Platform.android15AndLater.rawValue)
        static let json = OptionKey.flag("json", "print {\"url\", \"opensApp\", \"filter\", \"rule\", \"reason\"} per URL")
        static let all: [any DeclaredOption] = [manifest, assetLinks, package, platform, json]
    }

    /// The options of `android pattern`, each declared once.
    enum PatternOptions {
        static let kind = OptionKey.required(
            "type", "TYPE", "literal, prefix, simple, advanced or suffix",
            as: ValueReader.choice(AndroidPattern.Kind.allCases.map(\.rawValue))
                .map { AndroidPattern.Kind(rawValue: $0) ?? .literal })
        static let android15EscapedDot = OptionKey.flag(
            "android15-escaped-dot", "match an escaped \\. as Android 15 does (any character) instead of current AOSP")
        static let json = OptionKey.flag("json", "print {\"pattern\", \"type\", \"string\", \"matches\"} per string")
        static let all: [any DeclaredOption] = [kind, android15EscapedDot, json]
    }

    /// The options of `android check`, each declared once.
    enum CheckOptions {
        static let manifest = OptionKey.required(
            "manifest", "FILE", "the AndroidManifest.xml", as: .regularFile(maximumSize: maximumFileSize))
        static let assetLinks = OptionKey.optional(
            "assetlinks", "FILE", "the host's assetlinks.json", as: .regularFile(maximumSize: maximumFileSize))
        static let package = OptionKey.optional(
            "package", "NAME", "the application ID (default: the manifest's package)", as: .string)
        static let aasa = OptionKey.optional(
            "aasa", "FILE", "the host's apple-app-site-association, to compare answers",
            as: .regularFile(maximumSize: AASACommand.maximumFileSize))
        static let app = OptionKey.optional(
            "app", "TEAMID.bundle", "the iOS app whose AASA rules are compared (with --aasa)", as: .string)
        static let json = OptionKey.flag("json", "print {\"severity\", \"code\", \"keyPath\", \"message\"} per finding")
        static let all: [any DeclaredOption] = [manifest, assetLinks, package, aasa, app, json]
    }

    static let matchCommand = Command(
        name: "match",
        summary: "Says whether Android opens the app (app) or the browser (browser) for each URL, and why.",
        details: """
            Android's rules: an intent filter with VIEW, BROWSABLE and DEFAULT must take the URL (scheme, host, port,
            path attributes; Android 15's uri-relative-filter-groups), its host must be verified (an autoVerify
            filter declares it, and --assetlinks, when given, lists the package), and on Android 15 the first
            matching dynamic_app_link_components rule decides (no match: excluded). Without --assetlinks every
            autoVerify host is assumed to verify. Output: app or browser, a tab, the reason; one line per URL.
            Exit status 0 when the files were read, 2 otherwise.
            """,
        arguments: [CommandArgument("URL", "a URL as a user would tap it", repeatable: true)],
        options: MatchOptions.all.map(\.declaration),
        run: { parsed throws(UsageError) in try match(parsed) })

    static let patternCommand = Command(
        name: "pattern",
        summary: "Matches strings against one Android PatternMatcher pattern, as Android does.",
        details: """
            Types: literal (android:path), prefix (pathPrefix), simple (pathPattern), advanced (pathAdvancedPattern),
            suffix (pathSuffix). Strings are compared by UTF-16 code units, without normalisation; give paths
            decoded, as Android matches them. Output: match or none, one line per string. Exit status 0, or 2 with a
            message when Android rejects the pattern.
            """,
        arguments: [
            CommandArgument("PATTERN", "the pattern, as Android reads it (after the manifest's \\\\ escapes)"),
            CommandArgument("STRING", "a decoded path, query parameter or fragment", repeatable: true),
        ],
        options: PatternOptions.all.map(\.declaration),
        run: { parsed throws(UsageError) in try pattern(parsed) })

    static let checkCommand = Command(
        name: "check",
        summary: "Lints the Android side (manifest, assetlinks.json) and, with --aasa, finds URLs where iOS and Android disagree.",
        details: """
            Errors: patterns Android rejects, filters that never match, a dynamic rule set Android drops whole, URLs on
            which iOS and Android disagree (given URLs plus samples made from both files' paths). Warnings: hosts
            without autoVerify, hidden dynamic rules. Exit status: 0 without errors, 1 with errors, 2 when a file
            cannot be read.
            """,
        arguments: [CommandArgument("URL", "a URL to compare on iOS and Android", repeatable: true, required: false)],
        options: CheckOptions.all.map(\.declaration),
        run: { parsed throws(UsageError) in try check(parsed) })

    static func check(_ parsed: ParsedCommand) throws(UsageError) -> Int32 {
        let file = try parsed.value(CheckOptions.manifest)
        let appID = try parsed.value(CheckOptions.app)
        // Before --aasa is read: the pair is checked as given.
        if parsed.occurrences(of: [CheckOptions.aasa]).isEmpty != (appID == nil) {
            throw UsageError("--aasa and --app go together")
        }
        let json = try parsed.value(CheckOptions.json)
        let manifest: AndroidManifest
        var assetLinks: AssetLinks?
        var aasa: AppSiteAssociation?
        do {
            manifest = try AndroidManifest(parsing: file.bytes)
            if let links = try parsed.value(CheckOptions.assetLinks) {
                assetLinks = try AssetLinks(parsing: links.bytes)
            }
            if let aasaFile = try parsed.value(CheckOptions.aasa) {
                aasa = try AppSiteAssociation(parsing: aasaFile.bytes)
            }
        } catch let error as UsageError {
            throw error
        } catch {
            Console.err("linux-host: android check: \(error)")
            return 2
        }
        let matcher = AndroidLinkMatcher(
            manifest: manifest, assetLinks: assetLinks, packageName: try parsed.value(CheckOptions.package))
        let findings = matcher.lint(aasa: aasa, appID: appID, urls: parsed.positionals)
        for finding in findings {
            if json {
                Console.out(Console.jsonLine([
                    "severity": .string(finding.severity.rawValue), "code": .string(finding.code.description),
                    "keyPath": .string(finding.keyPath), "message": .string(finding.message),
                ]))
            } else {
                Console.out(Console.escaped(finding.description))
            }
        }
        let errors = findings.filter { $0.severity == .error }.count
        if !json {
            Console.out("\(file.path): \(errors) error\(errors == 1 ? "" : "s"), \(findings.count - errors) warning\(findings.count - errors == 1 ? "" : "s")")
        }
        return errors == 0 ? 0 : 1
    }

    static func match(_ parsed: ParsedCommand) throws(UsageError) -> Int32 {
        let file = try parsed.value(MatchOptions.manifest)
        let platform = try parsed.value(MatchOptions.platform)
        let json = try parsed.value(MatchOptions.json)
        let manifest: AndroidManifest
        do {
            manifest = try AndroidManifest(parsing: file.bytes)
        } catch {
            Console.err("linux-host: android match: \(file.path): \(error.message)")
            return 2
        }
        var assetLinks: AssetLinks?
        if let links = try parsed.value(MatchOptions.assetLinks) {
            do {
                assetLinks = try AssetLinks(parsing: links.bytes)
            } catch {
                Console.err("linux-host: android match: \(links.path): \(error.message)")
                return 2
            }
            for diagnostic in assetLinks?.diagnostics ?? [] {
                Console.err("linux-host: android match: \(links.path): \(Console.escaped(diagnostic.description))")
            }
        }
        for problem in manifest.problems {
            Console.err("linux-host: android match: \(file.path):\(problem)")
        }
        let matcher = AndroidLinkMatcher(
            manifest: manifest, assetLinks: assetLinks, packageName: try parsed.value(MatchOptions.package),
            configuration: .init(platform: platform))
        for url in parsed.positionals {
            let answer = matcher.explain(url)
            if json {
                Console.out(Console.jsonLine([
                    "url": .string(url), "opensApp": .bool(answer.opensApp), "filter": .stringOrNull(answer.filter),
                    "rule": .stringOrNull(answer.rule), "reason": .string(answer.reason),
                ]))
            } else {
                // The reason quotes the manifest and the URL: escaped, so neither can forge a line (the tab is ours).
                Console.out("\(answer.opensApp ? "app" : "browser")\t\(Console.escaped(answer.reason))")
            }
        }
        return 0
    }

    static func pattern(_ parsed: ParsedCommand) throws(UsageError) -> Int32 {
        let kind = try parsed.value(PatternOptions.kind)
        let escapedDotIsLiteral = !(try parsed.value(PatternOptions.android15EscapedDot))
        let json = try parsed.value(PatternOptions.json)
        guard let text = parsed.positionals.first else { throw UsageError("expected PATTERN") }
        let pattern: AndroidPattern
        do {
            pattern = try AndroidPattern(text, kind: kind, configuration: .init(escapedDotIsLiteral: escapedDotIsLiteral))
        } catch {
            Console.err("linux-host: android pattern: \(error.message)")
            return 2
        }
        for string in parsed.positionals.dropFirst() {
            let matches = pattern.matches(string)
            if json {
                Console.out(Console.jsonLine([
                    "pattern": .string(text), "type": .string(kind.rawValue), "string": .string(string), "matches": .bool(matches),
                ]))
            } else {
                Console.out(matches ? "match" : "none")
            }
        }
        return 0
    }
}
