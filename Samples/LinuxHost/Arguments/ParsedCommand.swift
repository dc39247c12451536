/// A command line the parser accepted: the command chosen, its options in order, its positional arguments.
///
/// Commands read options through their ``OptionKey``s (``value(_:)``); the name-based primitives below serve the
/// keys and the readers that need the command-line order of several options (``occurrences(of:)``).
struct ParsedCommand: Sendable {
    /// The command words from the root (`["linux-host", "aasa", "match"]`).
    var path: [String]
    /// Every option occurrence in command-line order; flags have an empty value.
    var occurrences: [(name: String, value: String)]
    /// The positional arguments, in order (everything after `--` included).
    var positionals: [String]
    /// The names of the options the command declares; reading any other is a programming error.
    var declared: Set<String> = []

    /// `linux-host aasa match`, for messages.
    var commandName: String { path.joined(separator: " ") }

    /// The value of `key`: read as it says, its default when absent.
    ///
    /// Traps in debug builds when the command does not declare `key`: a command reading another command's
    /// option would otherwise always get the default, silently.
    ///
    /// - Throws: `UsageError` naming the option, what it expects and what it got.
    func value<Value>(_ key: OptionKey<Value>) throws(UsageError) -> Value {
        assert(declared.contains(key.declaration.name),
               "\(commandName) reads --\(key.declaration.name), which it does not declare")
        return try key.read(self)
    }

    /// The occurrences of `keys`, in command-line order (for options whose order matters, such as rules).
    func occurrences(of keys: [any DeclaredOption]) -> [(name: String, value: String)] {
        let names = Set(keys.map(\.declaration.name))
        assert(names.isSubset(of: declared), "\(commandName) reads options it does not declare: \(names.subtracting(declared))")
        return occurrences.filter { names.contains($0.name) }
    }

    /// Whether the option `name` was given (for ``OptionKey``).
    func contains(_ name: String) -> Bool {
        occurrences.contains { $0.name == name }
    }

    /// The value of the option `name` (the last one given), or nil (for ``OptionKey``).
    func rawValue(of name: String) -> String? {
        occurrences.last { $0.name == name }?.value
    }

    /// Every value given for the option `name`, in order (for ``OptionKey``).
    func rawValues(of name: String) -> [String] {
        occurrences.filter { $0.name == name }.map(\.value)
    }

    /// A positional argument read as `reader` says.
    ///
    /// - Throws: `UsageError` naming the argument.
    func positional<Value>(_ index: Int, as reader: ValueReader<Value>, called name: String) throws(UsageError) -> Value {
        guard positionals.indices.contains(index) else { throw UsageError("expected \(name)") }
        return try reader.read(positionals[index], for: name)
    }
}
