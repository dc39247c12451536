import AssociatedDomains

/// `linux-host assetlinks generate ...` (AssociatedDomains).
///
/// - `assetlinks generate --package P --fingerprint SHA256 [--fingerprint ...]`: `assetlinks.json` on stdout.
/// - `assetlinks generate --intent-filter --domain HOST [--responsys] [--include P]... [--exclude P]...`:
///   the Android `<intent-filter>` for the same rules on stdout.
/// - `assetlinks generate --package P --fingerprint F [--responsys] [--include P]... [--exclude P]...`: with rules,
///   the statement carries them as Dynamic App Links rules (Android 15+).
/// - `--intent-filter --form android15`: the `<uri-relative-filter-group>` form (Android 15+ apps only).
/// Exit 0 on success, 1 when an input is invalid (message on stderr), 2 for a usage error.
enum AssetLinksCommand {
    static let command = Command(
        name: "assetlinks",
        summary: "Generates Android's Digital Asset Links file or the matching <intent-filter>.",
        subcommands: [generateCommand])

    /// The options of `assetlinks generate`, each declared once.
    enum Options {
        static let package = OptionKey.optional("package", "NAME", "the Android package name, e.g. com.example.app", as: .string)
        static let fingerprint = OptionKey.repeatable(
            "fingerprint", "SHA256", "a signing certificate's SHA-256 fingerprint (AA:BB:...)", as: .string)
        static let intentFilter = OptionKey.flag("intent-filter", "write the <intent-filter> for --domain and the rules instead")
        static let domain = OptionKey.optional("domain", "HOST", "the link domain of the intent filter", as: .host)
        static let responsys = OptionKey.flag("responsys", "the Responsys rules: /pub/acc in the app, never /pub/cc")
        static let include = OptionKey.repeatable(
            "include", "PATH", "open URLs whose path matches PATH in the app", as: .string)
        static let exclude = OptionKey.repeatable(
            "exclude", "PATH", "never open URLs whose path matches PATH in the app", as: .string)
        static let form = OptionKey.value(
            "form", "FORM", "intent filter form: compatible (every Android) or android15 (uri-relative-filter-groups)",
            as: ValueReader.choice(AppLinkRuleSet.AndroidFilterForm.allCases.map(\.rawValue))
                .map { AppLinkRuleSet.AndroidFilterForm(rawValue: $0) ?? .compatible },
            default: .compatible, shown: AppLinkRuleSet.AndroidFilterForm.compatible.rawValue)
        static let all: [any DeclaredOption] =
            [package, fingerprint, intentFilter, domain, responsys, include, exclude, form]
    }

    static let generateCommand = Command(
        name: "generate",
        summary: "Writes assetlinks.json (--package, --fingerprint) or, with --intent-filter, the Android <intent-filter>.",
        details: """
            With rules (--responsys, --include, --exclude), assetlinks.json carries them as dynamic_app_link_components,
            which keep excluded paths out of the app on Android 15+. Exit status: 0 on success, 1 when an input is
            invalid, 2 for a usage error.
            """,
        options: Options.all.map(\.declaration),
        run: { parsed throws(UsageError) in try generate(parsed) })

    static func generate(_ parsed: ParsedCommand) throws(UsageError) -> Int32 {
        if try parsed.value(Options.intentFilter) {
            guard let domain = try parsed.value(Options.domain) else { throw UsageError("--intent-filter needs --domain") }
            // App IDs play no part on Android.
            let ruleSet = AASACommand.ruleSet(
                parsed, responsys: Options.responsys, include: Options.include, exclude: Options.exclude, appIDs: [])
            guard !ruleSet.rules.isEmpty else { throw UsageError("give --responsys or at least one --include/--exclude") }
            let form = try parsed.value(Options.form)
            do {
                Console.out(try ruleSet.androidIntentFilter(host: domain, form: form))
                return 0
            } catch {
                Console.err("linux-host: assetlinks generate: \(error.message)")
                return 1
            }
        }
        guard let package = try parsed.value(Options.package) else { throw UsageError("--package is required") }
        let fingerprints = try parsed.value(Options.fingerprint)
        guard !fingerprints.isEmpty else { throw UsageError("--fingerprint is required") }
        let ruleSet = AASACommand.ruleSet(
            parsed, responsys: Options.responsys, include: Options.include, exclude: Options.exclude, appIDs: [])
        do {
            Console.out(try AssetLinks(packageName: package, fingerprints: fingerprints, rules: ruleSet.rules).json())
            return 0
        } catch {
            Console.err("linux-host: assetlinks generate: \(error.message)")
            return 1
        }
    }
}
