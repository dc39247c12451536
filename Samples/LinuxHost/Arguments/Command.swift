/// A `linux-host` command or sub-command, declared as data: the parser, the `--help` text and the usage errors
/// are all generated from this declaration.
///
/// The parser in this folder is the one argument parser of `linux-host` (no package). Its API, for a new command:
///
/// ```swift
/// enum Options {   // each option declared once, with its default (see `OptionKey`)
///     static let json = OptionKey.flag("json", "print one JSON object per finding")
///     static let timeout = OptionKey.value(
///         "timeout", "SECONDS", "deadline of each request", as: .seconds(in: 0.001...3600),
///         default: .seconds(10), shown: "10")
///     static let app = OptionKey.repeatable(
///         "app", "TEAMID.bundle", "an app that must be associated", as: .string, required: true)
///     static let all: [any DeclaredOption] = [json, timeout, app]
/// }
/// static let command = Command(
///     name: "doctor",
///     summary: "Checks what devices and Apple's CDN see for a domain.",
///     arguments: [CommandArgument("DOMAIN", "the branded domain to check", repeatable: true)],
///     options: Options.all.map(\.declaration),
///     run: { parsed in
///         let timeout = try parsed.value(Options.timeout)   // a Duration, the default when absent
///         for domain in parsed.positionals { Console.out(domain) }
///         return 0
///     })
/// ```
///
/// Add it to `LinuxHost.root`'s `subcommands`. The grammar every command gets:
/// - `--name value` and `--name=value` for valued options, `--name` for flags (`--flag=x` is an error);
/// - a valued option's separate value may not start with `--` (write `--name=--x` for that);
/// - a non-repeatable option given twice, an unknown option, a missing required option and a wrong number of
///   positional arguments are usage errors: `linux-host: COMMAND PATH: message` on stderr, exit 2;
/// - `--` ends options; `-` alone is a positional argument;
/// - `-h`/`--help` anywhere before `--` prints the generated help on stdout and exits 0;
/// - a command with sub-commands and no `run` dispatches on its first argument.
///
/// `run` receives the `ParsedCommand` and returns the exit status; it may throw `UsageError` (exit 2, message
/// printed as above), e.g. from a typed `ValueReader` such as `.seconds(in:)`, `.host`, `.port` or
/// `.regularFile(maximumSize:)`; any other error is printed as `linux-host: COMMAND: error` with exit 1.
/// Output goes through `Console`, which never traps: a failed write to stdout ends the process with exit 1.
struct Command: Sendable {
    /// The word that selects the command (`"match"` in `linux-host aasa match`).
    var name: String
    /// What the command does, in one sentence.
    var summary: String
    /// Paragraphs printed after the usage lines of `--help` (exit statuses, output format), optional.
    var details: String?
    /// Positional arguments in order; only the last may be repeatable.
    var arguments: [CommandArgument]
    /// The options the command takes (`-h/--help` is implicit).
    var options: [CommandOption]
    /// Sub-commands selected by the first argument.
    var subcommands: [Command]
    /// The sub-command run when none is named (the root's `demo`), if any.
    var defaultSubcommand: String?
    /// The action; nil for a command that only groups sub-commands.
    var run: (@Sendable (ParsedCommand) async throws -> Int32)?

    init(
        name: String,
        summary: String,
        details: String? = nil,
        arguments: [CommandArgument] = [],
        options: [CommandOption] = [],
        subcommands: [Command] = [],
        defaultSubcommand: String? = nil,
        run: (@Sendable (ParsedCommand) async throws -> Int32)? = nil
    ) {
        self.name = name
        self.summary = summary
        self.details = details
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
        self.run = run
    }

    /// The declared option called `name` (without the leading `--`).
    func option(named name: String) -> CommandOption? {
        options.first { $0.name == name }
    }

    /// The sub-command called `name`.
    func subcommand(named name: String) -> Command? {
        subcommands.first { $0.name == name }
    }
}
