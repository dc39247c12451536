import AssociatedDomains

/// `linux-host assetlinks generate ...` (AssociatedDomains, issue 4).
///
/// - `assetlinks generate --package P --fingerprint SHA256 [--fingerprint ...]`: `assetlinks.json` on stdout.
/// - `assetlinks generate --intent-filter --domain HOST [--responsys] [--include P]... [--exclude P]...`:
///   the Android `<intent-filter>` for the same rules on stdout.
/// Exit 0 on success, 1 when an input is invalid (message on stderr), 2 for a usage error.
enum AssetLinksCommand {
    static let usage = """
        usage: linux-host assetlinks generate --package com.example.app --fingerprint SHA256 [--fingerprint ...]
               linux-host assetlinks generate --intent-filter --domain HOST [--responsys] [--include PATH]...
                                              [--exclude PATH]...
        """

    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.first == "generate" else {
            if arguments.first == "--help" || arguments.first == "-h" || arguments.first == "help" {
                Console.out(usage)
                return 0
            }
            return Console.usageError("assetlinks: expected generate (see linux-host assetlinks --help)")
        }
        let options: AssociationCommandOptions
        do {
            options = try AssociationCommandOptions(
                Array(arguments.dropFirst()),
                valued: ["--package", "--fingerprint", "--domain", "--include", "--exclude"],
                flags: ["--intent-filter", "--responsys"])
        } catch {
            return Console.usageError("assetlinks generate: \(error.message)")
        }
        guard options.positional.isEmpty else {
            return Console.usageError("assetlinks generate: unexpected argument '\(options.positional[0])'")
        }
        if options.has("--intent-filter") {
            guard let domain = options.last("--domain") else {
                return Console.usageError("assetlinks generate: --intent-filter needs --domain")
            }
            // App IDs play no part on Android; a well-formed placeholder satisfies the rule set's validation.
            let ruleSet = options.ruleSet(appIDs: ["ANDROID000.intent.filter"])
            guard !ruleSet.rules.isEmpty else {
                return Console.usageError("assetlinks generate: give --responsys or at least one --include/--exclude")
            }
            do {
                Console.out(try ruleSet.androidIntentFilter(host: domain))
                return 0
            } catch {
                Console.err("linux-host: assetlinks generate: \(error.message)")
                return 1
            }
        }
        guard let package = options.last("--package") else {
            return Console.usageError("assetlinks generate: --package is required")
        }
        let fingerprints = options.all("--fingerprint")
        guard !fingerprints.isEmpty else {
            return Console.usageError("assetlinks generate: --fingerprint is required")
        }
        do {
            Console.out(try AssetLinks(packageName: package, fingerprints: fingerprints).json())
            return 0
        } catch {
            Console.err("linux-host: assetlinks generate: \(error.message)")
            return 1
        }
    }
}
