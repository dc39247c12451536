import AssociatedDomains

/// Hand-rolled option parsing for the `aasa` and `assetlinks` commands: `--name value` (or `--name=value`)
/// options, repeatable, in order; flags; everything else positional; `--` ends options.
struct AssociationCommandOptions {
    struct Failure: Error {
        var message: String
    }

    /// Every option occurrence in command-line order, flags with an empty value.
    private(set) var occurrences: [(name: String, value: String)] = []
    private(set) var positional: [String] = []

    init(_ arguments: [String], valued: Set<String>, flags: Set<String>) throws(Failure) {
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if optionsEnded || !argument.hasPrefix("--") {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inline: String?
            if let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                inline = String(argument[argument.index(after: eq)...])
            }
            if flags.contains(name) {
                guard inline == nil else { throw Failure(message: "\(name) takes no value") }
                occurrences.append((name, ""))
            } else if valued.contains(name) {
                if let inline {
                    occurrences.append((name, inline))
                } else {
                    guard i < arguments.count else { throw Failure(message: "\(name) needs a value") }
                    occurrences.append((name, arguments[i]))
                    i += 1
                }
            } else {
                throw Failure(message: "unknown option '\(name)'")
            }
        }
    }

    func has(_ name: String) -> Bool {
        occurrences.contains { $0.name == name }
    }

    func last(_ name: String) -> String? {
        occurrences.last { $0.name == name }?.value
    }

    func all(_ name: String) -> [String] {
        occurrences.filter { $0.name == name }.map(\.value)
    }

    /// `--responsys`, `--include` and `--exclude` as a rule set, in command-line order.
    func ruleSet(appIDs: [String]) -> AppLinkRuleSet {
        var rules: [AppLinkRuleSet.Rule] = []
        for occurrence in occurrences {
            switch occurrence.name {
            case "--responsys": rules += AppLinkRuleSet.responsys(appIDs: appIDs).rules
            case "--include": rules.append(.include(occurrence.value))
            case "--exclude": rules.append(.exclude(occurrence.value))
            default: break
            }
        }
        return AppLinkRuleSet(appIDs: appIDs, rules: rules)
    }
}
