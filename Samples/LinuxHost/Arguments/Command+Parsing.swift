extension Command {
    /// What a command line asks for.
    enum ParseOutcome {
        /// Run `command` with the parsed arguments.
        case run(Command, ParsedCommand)
        /// Print this help text on stdout, exit 0.
        case help(String)
        /// A usage error: message, and the usage lines of the command it concerns.
        case usageError(UsageError, command: Command, path: [String])
    }

    /// Parses `arguments` (without the program name) against this command and its sub-commands.
    ///
    /// - Parameters:
    ///   - arguments: The words after the program name.
    ///   - path: The command words leading here, starting with the program name.
    /// - Returns: What to do; never throws, a bad command line is `.usageError`.
    func parse(_ arguments: [String], path: [String]) -> ParseOutcome {
        let path = path.isEmpty ? [name] : path
        if !subcommands.isEmpty, run == nil || !arguments.isEmpty {
            if let first = arguments.first, !first.hasPrefix("-") || first == "-" {
                if first == "help", let target = helpTarget(Array(arguments.dropFirst()), path: path) {
                    return target
                }
                guard let sub = subcommand(named: first) else {
                    return .usageError(
                        UsageError("unknown command '\(first)' (expected \(subcommandList))"), command: self, path: path)
                }
                return sub.parse(Array(arguments.dropFirst()), path: path + [sub.name])
            }
            if let first = arguments.first, first == "-h" || first == "--help" {
                return .help(helpText(path: path))
            }
            if arguments.isEmpty, let name = defaultSubcommand, let sub = subcommand(named: name) {
                return sub.parse([], path: path + [sub.name])
            }
            if run == nil {
                let message = arguments.first.map { "unknown option '\($0)' (expected \(subcommandList))" }
                    ?? "expected \(subcommandList)"
                return .usageError(UsageError(message), command: self, path: path)
            }
        }
        guard run != nil else {
            return .usageError(UsageError("expected \(subcommandList)"), command: self, path: path)
        }
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            return .help(helpText(path: path))
        }
        do throws(UsageError) {
            return .run(self, try parseOptions(arguments, path: path))
        } catch {
            return .usageError(error, command: self, path: path)
        }
    }

    /// `linux-host help aasa match` is `linux-host aasa match --help`.
    private func helpTarget(_ words: [String], path: [String]) -> ParseOutcome? {
        var command = self
        var path = path
        for word in words {
            guard let sub = command.subcommand(named: word) else {
                return .usageError(UsageError("help: unknown command '\(word)'"), command: command, path: path)
            }
            command = sub
            path.append(sub.name)
        }
        return .help(command.helpText(path: path))
    }

    private var subcommandList: String {
        let names = subcommands.map(\.name)
        guard names.count > 1 else { return names.first ?? "nothing" }
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    private func parseOptions(_ arguments: [String], path: [String]) throws(UsageError) -> ParsedCommand {
        var parsed = ParsedCommand(path: path, occurrences: [], positionals: [], declared: Set(options.map(\.name)))
        var rest = arguments[...]
        var optionsEnded = false
        while let argument = rest.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            guard argument.hasPrefix("--") else { throw UsageError("unknown option '\(argument)'") }
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = option(named: name) else { throw UsageError("unknown option '--\(name)'") }
            if !option.isRepeatable, parsed.contains(name) {
                throw UsageError("--\(name) given more than once")
            }
            if option.isFlag {
                guard inline == nil else { throw UsageError("--\(name) takes no value") }
                parsed.occurrences.append((name, ""))
            } else if let inline {
                parsed.occurrences.append((name, inline))
            } else {
                guard let value = rest.first, !value.hasPrefix("--") else {
                    throw UsageError("--\(name) needs a value (\(option.valueName ?? "VALUE"))")
                }
                rest = rest.dropFirst()
                parsed.occurrences.append((name, value))
            }
        }
        for option in options where option.isRequired && !parsed.contains(option.name) {
            throw UsageError("--\(option.name) \(option.valueName ?? "") is required")
        }
        try checkPositionals(parsed.positionals)
        return parsed
    }

    private func checkPositionals(_ positionals: [String]) throws(UsageError) {
        let required = arguments.filter(\.isRequired)
        if positionals.count < required.count {
            let missing = required[positionals.count]
            throw UsageError(missing.isRepeatable ? "expected at least one \(missing.name)" : "expected \(missing.name)")
        }
        let unlimited = arguments.last?.isRepeatable ?? false
        if !unlimited, positionals.count > arguments.count {
            let extra = positionals[arguments.count]
            throw UsageError(arguments.isEmpty
                ? "unexpected argument '\(extra)'"
                : "unexpected argument '\(extra)' (expected \(arguments.map(\.synopsis).joined(separator: " ")))")
        }
    }
}
