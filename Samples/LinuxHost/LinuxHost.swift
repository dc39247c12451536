import Foundation

/// The `linux-host` entry point: picks the sub-command and returns the process exit status.
///
/// Exit statuses follow one rule across commands: 0 when every input was handled without error,
/// 1 when some input failed, 2 for a usage error (with a message on stderr).
enum LinuxHost {
    static let usage = """
        usage: linux-host [demo]
               linux-host resolve [--json] [--timeout S] [--allow-loopback] [--allow-http] [--branded-domain HOST]... URL...
               linux-host inapp [--execute-rsys-web-url | --no-execute-rsys-web-url] [options] URL...
               linux-host push [options] PAYLOAD_JSON
               linux-host serve [--port N]
               linux-host route --table FILE [--can-route] URL...
               linux-host aasa match|check|generate ...
               linux-host assetlinks generate ...
               linux-host doctor domain|campaign ...
        """

    static func run(_ arguments: [String]) async -> Int32 {
        guard let command = arguments.first else {
            return await DemoCommand.run([])
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "demo":
            return await DemoCommand.run(rest)
        case "resolve", "inapp", "push":
            return await ResolveCommand.run(command, rest)
        case "serve":
            return await ServeCommand.run(rest)
        case "route":
            return RouteCommand.run(rest)
        case "aasa":
            return AASACommand.run(rest)
        case "assetlinks":
            return AssetLinksCommand.run(rest)
        case "doctor":
            return await DoctorCommand.run(rest)
        case "-h", "--help", "help":
            Console.out(usage)
            return 0
        default:
            return Console.usageError("unknown command '\(command)'")
        }
    }
}
