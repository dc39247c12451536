/// A command line the parser accepted: the command chosen, its options in order, its positional arguments.
struct ParsedCommand: Sendable {
    /// The command words from the root (`["linux-host", "aasa", "match"]`).
    var path: [String]
    /// Every option occurrence in command-line order; flags have an empty value.
    var occurrences: [(name: String, value: String)]
    /// The positional arguments, in order (everything after `--` included).
    var positionals: [String]

    /// `linux-host aasa match`, for messages.
    var commandName: String { path.joined(separator: " ") }

    /// Whether the flag or option `name` was given.
    func has(_ name: String) -> Bool {
        occurrences.contains { $0.name == name }
    }

    /// The value of the option `name` (the last one given), or nil.
    func value(_ name: String) -> String? {
        occurrences.last { $0.name == name }?.value
    }

    /// Every value given for the repeatable option `name`, in order.
    func values(_ name: String) -> [String] {
        occurrences.filter { $0.name == name }.map(\.value)
    }

    /// The value of the option `name` read as `reader` says, or nil when the option is absent.
    ///
    /// - Throws: `UsageError` naming the option, what it expects and what it got.
    func value<Value>(_ name: String, as reader: ValueReader<Value>) throws(UsageError) -> Value? {
        guard let raw = value(name) else { return nil }
        return try reader.read(raw, for: "--\(name)")
    }

    /// Every value of the repeatable option `name`, each read as `reader` says.
    ///
    /// - Throws: `UsageError` for the first value that does not read.
    func values<Value>(_ name: String, as reader: ValueReader<Value>) throws(UsageError) -> [Value] {
        var result: [Value] = []
        for raw in values(name) { result.append(try reader.read(raw, for: "--\(name)")) }
        return result
    }

    /// A positional argument read as `reader` says.
    ///
    /// - Throws: `UsageError` naming the argument.
    func positional<Value>(_ index: Int, as reader: ValueReader<Value>, called name: String) throws(UsageError) -> Value {
        guard positionals.indices.contains(index) else { throw UsageError("expected \(name)") }
        return try reader.read(positionals[index], for: name)
    }
}
