import Foundation

// Everything runs from `LinuxHost.run` so the commands stay testable as plain functions.
let status = await LinuxHost.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
