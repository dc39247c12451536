import Foundation

// Before anything opens a file or socket: a standard descriptor closed by the caller must not be reused.
Console.prepare()
// Everything runs from `LinuxHost.run` so the commands stay testable as plain functions.
let status = await LinuxHost.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
