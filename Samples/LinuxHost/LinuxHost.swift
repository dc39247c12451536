import Foundation

/// The `linux-host` entry point: every command declared in one tree, parsed by the one parser in `Arguments/`.
///
/// Exit statuses follow one rule across commands: 0 when every input was handled without error,
/// 1 when some input failed (or output could not be written), 2 for a usage error (with a message on stderr).
enum LinuxHost {
    /// Every command of `linux-host`; a new command is one more entry here.
    static let root = Command(
        name: "linux-host",
        summary: "The UniversalLinkKit console host: resolves Responsys links, routes them and checks association files.",
        details: """
            Run without a command, it runs the demo. Exit status: 0 when every input was handled without error,
            1 when some input failed, 2 for a usage error.
            """,
        subcommands: [
            DemoCommand.command,
            ResolveCommand.command(.resolve),
            ResolveCommand.command(.inapp),
            ResolveCommand.command(.push),
            ServeCommand.command,
            RouteCommand.command,
            AASACommand.command,
            AssetLinksCommand.command,
            AndroidCommand.command,
            DoctorCommand.command,
        ],
        defaultSubcommand: "demo")

    /// Parses `arguments` (without the program name) and runs the command they name.
    static func run(_ arguments: [String]) async -> Int32 {
        switch root.parse(arguments, path: [root.name]) {
        case .help(let text):
            Console.out(text)
            return 0
        case .usageError(let error, let command, let path):
            return usageError(error, command: command, path: path)
        case .run(let command, let parsed):
            guard let run = command.run else { return 2 }
            do {
                return try await run(parsed)
            } catch let error as UsageError {
                return usageError(error, command: command, path: parsed.path)
            } catch {
                Console.err("linux-host: \(parsed.path.dropFirst().joined(separator: " ")): \(error)")
                return 1
            }
        }
    }

    private static func usageError(_ error: UsageError, command: Command, path: [String]) -> Int32 {
        let name = path.dropFirst().joined(separator: " ")
        return Console.usageError(
            name.isEmpty ? error.message : "\(name): \(error.message)",
            usage: command.usageLine(path: path),
            help: path.joined(separator: " ") + " --help")
    }
}
