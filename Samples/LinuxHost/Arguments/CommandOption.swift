/// One `--name` option of a `Command`: a flag, or an option that takes a value.
struct CommandOption: Sendable {
    /// The name without the leading `--` (`"timeout"`).
    var name: String
    /// What the value is called in help and errors (`"SECONDS"`); nil for a flag.
    var valueName: String?
    /// One line saying what the option does.
    var description: String
    /// The value used when the option is absent, as shown in help; nil when there is none.
    var defaultValue: String?
    /// Whether the option may be given more than once (every occurrence is kept, in order).
    var isRepeatable: Bool
    /// Whether the command refuses to run without it.
    var isRequired: Bool

    /// Whether the option is a flag (takes no value).
    var isFlag: Bool { valueName == nil }

    /// A flag: `--name`, no value.
    static func flag(_ name: String, _ description: String, repeatable: Bool = false) -> CommandOption {
        CommandOption(name: name, valueName: nil, description: description, defaultValue: nil,
                      isRepeatable: repeatable, isRequired: false)
    }

    /// An option with a value: `--name VALUE` or `--name=VALUE`.
    static func valued(
        _ name: String, _ valueName: String, _ description: String,
        default defaultValue: String? = nil, repeatable: Bool = false, required: Bool = false
    ) -> CommandOption {
        CommandOption(name: name, valueName: valueName, description: description, defaultValue: defaultValue,
                      isRepeatable: repeatable, isRequired: required)
    }

    /// How the option is written in usage lines: `--timeout SECONDS` or `--json`.
    var synopsis: String {
        valueName.map { "--\(name) \($0)" } ?? "--\(name)"
    }
}
