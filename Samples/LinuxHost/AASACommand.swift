import AssociatedDomains
import Foundation

/// `linux-host aasa match|check|generate ...` (AssociatedDomains, issue 4).
///
/// - `aasa match --file F [--domain D] --app A [--legacy] [--json] URL...`: one line per URL, in input order:
///   `match`, `exclude` or `none`; with `--json`, `{"url", "result", "explanation"}`. Exit 0 when the file was
///   read, 2 when it could not be (message on stderr).
/// - `aasa check --file F [--json]`: the diagnostics, one per line, then a count; exit 0 without errors
///   (warnings allowed), 1 with errors, 2 when the file cannot be opened.
/// - `aasa generate --app TEAM.bundle... [--responsys] [--include P]... [--exclude P]... [--format F]`:
///   the file on stdout.
enum AASACommand {
    static let usage = """
        usage: linux-host aasa match --file FILE [--domain HOST] --app TEAMID.bundle [--legacy] [--json] URL...
               linux-host aasa check --file FILE [--json]
               linux-host aasa generate --app TEAMID.bundle [--app ...] [--responsys] [--include PATH]...
                                        [--exclude PATH]... [--format components|legacy|both]
        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let sub = arguments.first else {
            return Console.usageError("aasa: expected match, check or generate (see linux-host aasa --help)")
        }
        let rest = Array(arguments.dropFirst())
        switch sub {
        case "match": return match(rest)
        case "check": return check(rest)
        case "generate": return generate(rest)
        case "-h", "--help", "help":
            Console.out(usage)
            return 0
        default: return Console.usageError("aasa: unknown sub-command '\(sub)' (see linux-host aasa --help)")
        }
    }

    static func match(_ arguments: [String]) -> Int32 {
        let options: AssociationCommandOptions
        do {
            options = try AssociationCommandOptions(
                arguments, valued: ["--file", "--domain", "--app"], flags: ["--legacy", "--json"])
        } catch {
            return Console.usageError("aasa match: \(error.message)")
        }
        guard let path = options.last("--file") else { return Console.usageError("aasa match: --file is required") }
        guard let appID = options.last("--app") else { return Console.usageError("aasa match: --app is required") }
        guard !options.positional.isEmpty else { return Console.usageError("aasa match: give at least one URL") }
        let association: AppSiteAssociation
        switch readFile(path) {
        case .failure(let message):
            Console.err("linux-host: aasa match: \(message)")
            return 2
        case .success(let bytes):
            do {
                association = try AppSiteAssociation(parsing: bytes)
            } catch {
                Console.err("linux-host: aasa match: \(path): \(error.message)")
                return 2
            }
        }
        let platform: AppLinkMatcher.Configuration.Platform = options.has("--legacy") ? .iOS9To12 : .iOS13AndLater
        let matcher = AppLinkMatcher(association, configuration: .init(platform: platform))
        let domain = options.last("--domain")
        for url in options.positional {
            let result = matcher.explain(url, appID: appID, domain: domain)
            if options.has("--json") {
                var explanation = result.explanation
                if let nearest = result.nearMisses.first { explanation += "; nearest: " + nearest }
                Console.out(Console.jsonLine([
                    "url": url, "result": result.outcome.rawValue, "explanation": explanation,
                ] as [String: Any]))
            } else {
                Console.out(result.outcome.rawValue)
            }
        }
        return 0
    }

    static func check(_ arguments: [String]) -> Int32 {
        let options: AssociationCommandOptions
        do {
            options = try AssociationCommandOptions(arguments, valued: ["--file"], flags: ["--json"])
        } catch {
            return Console.usageError("aasa check: \(error.message)")
        }
        guard let path = options.last("--file") else { return Console.usageError("aasa check: --file is required") }
        guard options.positional.isEmpty else {
            return Console.usageError("aasa check: unexpected argument '\(options.positional[0])'")
        }
        let bytes: [UInt8]
        switch readFile(path) {
        case .failure(let message):
            Console.err("linux-host: aasa check: \(message)")
            return 2
        case .success(let b):
            bytes = b
        }
        let diagnostics = AppSiteAssociation.check(bytes)
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        for d in diagnostics {
            if options.has("--json") {
                Console.out(Console.jsonLine([
                    "severity": d.severity.rawValue, "code": d.code.description, "keyPath": d.keyPath,
                    "message": d.message,
                ] as [String: Any]))
            } else {
                Console.out(d.description)
            }
        }
        if !options.has("--json") {
            Console.out("\(path): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        }
        return errors == 0 ? 0 : 1
    }

    static func generate(_ arguments: [String]) -> Int32 {
        let options: AssociationCommandOptions
        do {
            options = try AssociationCommandOptions(
                arguments, valued: ["--app", "--include", "--exclude", "--format"], flags: ["--responsys"])
        } catch {
            return Console.usageError("aasa generate: \(error.message)")
        }
        guard options.positional.isEmpty else {
            return Console.usageError("aasa generate: unexpected argument '\(options.positional[0])'")
        }
        let apps = options.all("--app")
        guard !apps.isEmpty else { return Console.usageError("aasa generate: --app is required") }
        let format: AppLinkRuleSet.Format
        switch options.last("--format") ?? "both" {
        case "components": format = .components
        case "legacy": format = .legacy
        case "both": format = .both
        case let other:
            return Console.usageError("aasa generate: --format must be components, legacy or both, not '\(other)'")
        }
        let ruleSet = options.ruleSet(appIDs: apps)
        guard !ruleSet.rules.isEmpty else {
            return Console.usageError("aasa generate: give --responsys or at least one --include/--exclude")
        }
        do {
            Console.out(try ruleSet.appSiteAssociation(format: format))
            return 0
        } catch {
            Console.err("linux-host: aasa generate: \(error.message)")
            return 1
        }
    }

    enum ReadResult {
        case success([UInt8])
        case failure(String)
    }

    /// Reads a file, refusing anything over 8 MiB before loading it.
    static func readFile(_ path: String) -> ReadResult {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure("cannot open '\(path)'")
        }
        defer { try? handle.close() }
        let limit = AppSiteAssociation.Configuration().maximumReadSize
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            if data.count > limit {
                return .failure("'\(path)' is larger than \(limit) bytes")
            }
            return .success([UInt8](data))
        } catch {
            return .failure("cannot read '\(path)': \(error.localizedDescription)")
        }
    }
}
