import AssociatedDomains
import Foundation
internal import _LinkKitText

/// `linux-host aasa match|check|generate ...` (AssociatedDomains).
///
/// - `aasa match --file F [--domain D] --app A [--legacy] [--json] URL...`: one line per URL, in input order:
///   `match`, `exclude` or `none`; with `--json`, `{"url", "result", "explanation"}`. Exit 0 when the file was
///   read, 2 when it could not be (message on stderr).
/// - `aasa check --file F [--json]`: the diagnostics, one per line, then a count; exit 0 without errors
///   (warnings allowed), 1 with errors, 2 when the file cannot be opened.
/// - `aasa generate --app TEAM.bundle... [--responsys] [--include P]... [--exclude P]... [--format F]`:
///   the file on stdout, and the checker's warnings about it on stderr.
enum AASACommand {
    static var maximumFileSize: Int { AppSiteAssociation.Configuration().maximumReadSize }

    static let command = Command(
        name: "aasa",
        summary: "Matches URLs against, checks and generates apple-app-site-association files as iOS reads them.",
        subcommands: [matchCommand, checkCommand, generateCommand])

    /// The options of `aasa match`, each declared once.
    enum MatchOptions {
        static let file = OptionKey.required(
            "file", "FILE", "the apple-app-site-association file", as: .regularFile(maximumSize: maximumFileSize))
        static let app = OptionKey.required("app", "TEAMID.bundle", "the app whose rules decide", as: .string)
        static let domain = OptionKey.optional(
            "domain", "HOST", "the domain the file was served from (checks the URL's host)", as: .host)
        static let legacy = OptionKey.flag("legacy", "match as iOS 9 to 12 do: paths only, no components")
        static let json = OptionKey.flag("json", "print {\"url\", \"result\", \"explanation\"} per URL")
        static let all: [any DeclaredOption] = [file, app, domain, legacy, json]
    }

    /// The options of `aasa check`, each declared once.
    enum CheckOptions {
        static let file = OptionKey.required(
            "file", "FILE", "the apple-app-site-association file", as: .regularFile(maximumSize: maximumFileSize))
        static let json = OptionKey.flag("json", "print {\"severity\", \"code\", \"keyPath\", \"message\"} per diagnostic")
        static let all: [any DeclaredOption] = [file, json]
    }

    /// The options of `aasa generate`, each declared once with its default.
    enum GenerateOptions {
        static let app = OptionKey.repeatable(
            "app", "TEAMID.bundle", "an app the rules apply to", as: .string, required: true)
        static let responsys = OptionKey.flag(
            "responsys", "the Responsys rules: open /pub/acc links in the app, never /pub/cc")
        static let include = OptionKey.repeatable(
            "include", "PATH", "open URLs whose path matches PATH in the app", as: .string)
        static let exclude = OptionKey.repeatable(
            "exclude", "PATH", "never open URLs whose path matches PATH in the app", as: .string)
        static let format = OptionKey.value(
            "format", "FORMAT", "components (iOS 13+), legacy (paths) or both",
            as: .choice(["components", "legacy", "both"]), default: "both", shown: "both")
        static let all: [any DeclaredOption] = [app, responsys, include, exclude, format]
    }

    static let matchCommand = Command(
        name: "match",
        summary: "Says whether iOS opens the app for each URL (match), the browser (exclude, none).",
        details: "Output: match, exclude or none, one line per URL. Exit status 0 when the file was read, 2 otherwise.",
        arguments: [CommandArgument("URL", "a URL as a user would tap it", repeatable: true)],
        options: MatchOptions.all.map(\.declaration),
        run: { parsed throws(UsageError) in try match(parsed) })

    static let checkCommand = Command(
        name: "check",
        summary: "Lints an apple-app-site-association file: errors, warnings, each with its key path.",
        details: "Exit status: 0 without errors (warnings allowed), 1 with errors, 2 when the file cannot be read.",
        options: CheckOptions.all.map(\.declaration),
        run: { parsed throws(UsageError) in try check(parsed) })

    static let generateCommand = Command(
        name: "generate",
        summary: "Writes an apple-app-site-association file for the given apps and rules on stdout.",
        details: """
            Rules are written in command-line order, and the first that matches decides; a rule that an earlier rule
            of the other kind would hide (an --exclude inside an earlier --include) is moved just before it, so
            `--include '/products/*' --exclude '/products/internal/*'` keeps internal pages out of the app. The
            checker's warnings about the result go to stderr.
            """,
        options: GenerateOptions.all.map(\.declaration),
        run: { parsed throws(UsageError) in try generate(parsed) })

    static func match(_ parsed: ParsedCommand) throws(UsageError) -> Int32 {
        let file = try parsed.value(MatchOptions.file)
        let appID = try parsed.value(MatchOptions.app)
        let domain = try parsed.value(MatchOptions.domain)
        let association: AppSiteAssociation
        do {
            association = try AppSiteAssociation(parsing: file.bytes)
        } catch {
            Console.err("linux-host: aasa match: \(file.path): \(error.message)")
            return 2
        }
        let platform: AppLinkMatcher.Configuration.Platform = try parsed.value(MatchOptions.legacy) ? .iOS9To12 : .iOS13AndLater
        let json = try parsed.value(MatchOptions.json)
        let matcher = AppLinkMatcher(association, configuration: .init(platform: platform))
        for url in parsed.positionals {
            let result = matcher.explain(url, appID: appID, domain: domain)
            if json {
                var explanation = result.explanation
                if let nearest = result.nearMisses.first { explanation += "; nearest: " + nearest }
                Console.out(Console.jsonLine([
                    "url": .string(url), "result": .string(result.outcome.rawValue), "explanation": .string(explanation),
                ]))
            } else {
                Console.out(result.outcome.rawValue)
            }
        }
        return 0
    }

    static func check(_ parsed: ParsedCommand) throws(UsageError) -> Int32 {
        let file = try parsed.value(CheckOptions.file)
        let json = try parsed.value(CheckOptions.json)
        let diagnostics = AppSiteAssociation.check(file.bytes)
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        for d in diagnostics {
            if json {
                Console.out(Console.jsonLine([
                    "severity": .string(d.severity.rawValue), "code": .string(d.code.description), "keyPath": .string(d.keyPath),
                    "message": .string(d.message),
                ]))
            } else {
                Console.out(Console.escaped(d.description))
            }
        }
        if !json {
            Console.out("\(file.path): \(count(errors, "error")), \(count(warnings, "warning"))")
        }
        return errors == 0 ? 0 : 1
    }

    static func generate(_ parsed: ParsedCommand) throws(UsageError) -> Int32 {
        let format: AppLinkRuleSet.Format
        switch try parsed.value(GenerateOptions.format) {
        case "components": format = .components
        case "legacy": format = .legacy
        default: format = .both
        }
        let ruleSet = ruleSet(
            parsed, responsys: GenerateOptions.responsys, include: GenerateOptions.include,
            exclude: GenerateOptions.exclude, appIDs: try parsed.value(GenerateOptions.app))
        guard !ruleSet.rules.isEmpty else { throw UsageError("give --responsys or at least one --include/--exclude") }
        let text: String
        do {
            text = try ruleSet.appSiteAssociation(format: format)
        } catch {
            Console.err("linux-host: aasa generate: \(error.message)")
            return 1
        }
        Console.out(text)
        // The file is written as asked; what the checker finds in it (a rule that can never decide...) is a warning.
        for diagnostic in AppSiteAssociation.check(Array(text.utf8)) {
            // The description starts with the severity already ("warning: KEYPATH: ...").
            Console.err("linux-host: aasa generate: \(diagnostic)")
        }
        return 0
    }

    /// `--responsys`, `--include` and `--exclude` (the command's own keys for them) as a rule set, in
    /// command-line order.
    static func ruleSet(
        _ parsed: ParsedCommand, responsys: OptionKey<Bool>, include: OptionKey<[String]>, exclude: OptionKey<[String]>,
        appIDs: [String]
    ) -> AppLinkRuleSet {
        var rules: [AppLinkRuleSet.Rule] = []
        for occurrence in parsed.occurrences(of: [responsys, include, exclude]) {
            switch occurrence.name {
            case responsys.declaration.name: rules += AppLinkRuleSet.responsys(appIDs: appIDs).rules
            case include.declaration.name: rules.append(.include(occurrence.value))
            default: rules.append(.exclude(occurrence.value))
            }
        }
        return AppLinkRuleSet(appIDs: appIDs, rules: rules)
    }

    private static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }
}
