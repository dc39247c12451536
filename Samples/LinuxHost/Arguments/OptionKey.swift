/// One option of a command, declared once: its name and help (the ``CommandOption`` the parser and `--help` use),
/// how its value reads, and its default. A command reads it through `ParsedCommand.value(_:)`:
///
/// ```swift
/// enum Options {
///     static let timeout = OptionKey.value(
///         "timeout", "SECONDS", "deadline of each resolution", as: .seconds(in: 0.001...3600),
///         default: .seconds(10), shown: "10")
///     static let json = OptionKey.flag("json", "print one JSON object per line")
///     static let all: [any DeclaredOption] = [timeout, json]
/// }
/// // Command(..., options: Options.all.map(\.declaration), run: { parsed in
/// let timeout = try parsed.value(Options.timeout)   // a Duration: the default when absent
/// ```
///
/// A key is a symbol, so a misspelt option is a compile error; reading a key that the command did not declare is
/// a programming error that traps in debug builds (``ParsedCommand/value(_:)``), which every end-to-end test of the
/// command exercises.
struct OptionKey<Value>: DeclaredOption, Sendable {
    /// The option as the parser and `--help` see it.
    let declaration: CommandOption
    /// Reads the value from a parsed command line (the default when the option is absent).
    let read: @Sendable (ParsedCommand) throws(UsageError) -> Value
}

/// What every ``OptionKey`` declares, whatever its value type: a command's options are a list of these.
protocol DeclaredOption: Sendable {
    /// The option as the parser and `--help` see it.
    var declaration: CommandOption { get }
}

extension OptionKey where Value == Bool {
    /// A flag, `--name`: `true` when given.
    static func flag(_ name: String, _ description: String) -> OptionKey<Bool> {
        OptionKey(declaration: .flag(name, description)) { parsed in parsed.contains(name) }
    }
}

extension OptionKey {
    /// `--name VALUE`, read by `reader`, `defaultValue` when absent; `shown` is the default as `--help` prints it.
    static func value(
        _ name: String, _ valueName: String, _ description: String, as reader: ValueReader<Value>,
        default defaultValue: Value, shown: String
    ) -> OptionKey<Value> where Value: Sendable {
        OptionKey(declaration: .valued(name, valueName, description, default: shown)) { parsed throws(UsageError) in
            guard let raw = parsed.rawValue(of: name) else { return defaultValue }
            return try reader.read(raw, for: "--\(name)")
        }
    }

    /// `--name VALUE` without a default: `nil` when absent.
    static func optional<Wrapped>(
        _ name: String, _ valueName: String, _ description: String, as reader: ValueReader<Wrapped>
    ) -> OptionKey<Value> where Value == Wrapped? {
        OptionKey(declaration: .valued(name, valueName, description)) { parsed throws(UsageError) in
            guard let raw = parsed.rawValue(of: name) else { return nil }
            return try reader.read(raw, for: "--\(name)")
        }
    }

    /// `--name VALUE` that the command refuses to run without (the parser says so before `run`).
    static func required(
        _ name: String, _ valueName: String, _ description: String, as reader: ValueReader<Value>
    ) -> OptionKey<Value> {
        OptionKey(declaration: .valued(name, valueName, description, required: true)) { parsed throws(UsageError) in
            guard let raw = parsed.rawValue(of: name) else { throw UsageError("--\(name) \(valueName) is required") }
            return try reader.read(raw, for: "--\(name)")
        }
    }

    /// `--name VALUE`, repeatable: every value, in command-line order, each read by `reader`.
    static func repeatable<Element>(
        _ name: String, _ valueName: String, _ description: String, as reader: ValueReader<Element>,
        required: Bool = false
    ) -> OptionKey<Value> where Value == [Element] {
        OptionKey(declaration: .valued(name, valueName, description, repeatable: true, required: required)) {
            parsed throws(UsageError) in
            var values: [Element] = []
            for raw in parsed.rawValues(of: name) { values.append(try reader.read(raw, for: "--\(name)")) }
            return values
        }
    }
}
