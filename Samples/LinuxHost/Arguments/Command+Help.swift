import Foundation

extension Command {
    /// The usage line(s): `usage: linux-host resolve [options] URL...`.
    func usageLine(path: [String]) -> String {
        let name = path.joined(separator: " ")
        if !subcommands.isEmpty && run == nil || defaultSubcommand != nil {
            var line = "usage: \(name) COMMAND [options]"
            if defaultSubcommand != nil { line = "usage: \(name) [COMMAND] [options]" }
            return line
        }
        var words = [name]
        let required = options.filter(\.isRequired)
        words += required.map { $0.synopsis + ($0.isRepeatable ? "..." : "") }
        if options.count > required.count { words.append("[options]") }
        words += arguments.map(\.synopsis)
        return "usage: " + words.joined(separator: " ")
    }

    /// The `--help` text, generated from the declaration: summary, usage, arguments, options with defaults.
    func helpText(path: [String]) -> String {
        var lines = ["\(path.joined(separator: " ")): \(summary)", "", usageLine(path: path)]
        if !subcommands.isEmpty {
            lines += ["", "commands:"]
            lines += table(subcommands.map { ($0.name + ($0.name == defaultSubcommand ? " (default)" : ""), $0.summary) })
        }
        if !arguments.isEmpty {
            lines += ["", "arguments:"]
            lines += table(arguments.map { ($0.synopsis, $0.description) })
        }
        lines += ["", "options:"]
        var rows = options.map { option -> (String, String) in
            var text = option.description
            var notes: [String] = []
            if option.isRequired { notes.append("required") }
            if let value = option.defaultValue { notes.append("default: \(value)") }
            if option.isRepeatable { notes.append("repeatable") }
            if !notes.isEmpty { text += " (" + notes.joined(separator: "; ") + ")" }
            return (option.synopsis, text)
        }
        rows.append(("-h, --help", "print this help and exit"))
        lines += table(rows)
        if !subcommands.isEmpty {
            lines += ["", "Run '\(path.joined(separator: " ")) COMMAND --help' for a command's arguments and options."]
        }
        if let details {
            lines += ["", details]
        }
        return lines.joined(separator: "\n")
    }

    private func table(_ rows: [(String, String)]) -> [String] {
        let width = min(rows.map(\.0.count).max() ?? 0, 28)
        return rows.map { left, right in
            left.count > width
                ? "  \(left)\n  \(String(repeating: " ", count: width))  \(right)"
                : "  \(left.padding(toLength: width, withPad: " ", startingAt: 0))  \(right)"
        }
    }
}
