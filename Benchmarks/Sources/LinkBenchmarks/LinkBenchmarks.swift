import Foundation

/// `link-benchmarks [--json] [--filter GROUP]... [--quick]`: measures every group (or the named ones) and prints a
/// table, or one JSON object per measurement with `--json`.
@main
struct LinkBenchmarks {
    static let groups = ["routing", "resolution", "aasa", "broadcast", "manager", "tls"]

    static func main() async throws {
        var json = false
        var selected: [String] = []
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--json":
                json = true
            case "--filter":
                guard let group = arguments.popFirst(), groups.contains(group) else {
                    usage("--filter takes one of: \(groups.joined(separator: ", "))")
                }
                selected.append(group)
            case "--quick":
                // For smoke runs: fewer and shorter batches; the numbers are rougher.
                Timer.batches = 5
                Timer.batchDuration = .milliseconds(2)
            case "--profile":
                guard let name = arguments.popFirst(), Profile.names.contains(name) else {
                    usage("--profile takes one of: \(Profile.names.joined(separator: ", "))")
                }
                let iterations = arguments.first.flatMap { Int($0) } ?? 1_000
                Profile.run(name, iterations: iterations)
                return
            case "--tls-urlsession-child":
                // The URLSession burst of group `tls`, in the child that group starts.
                await TLSBurstGroup.urlSessionChild(port: arguments.popFirst() ?? "0")
            case "-h", "--help":
                print(helpText)
                return
            default:
                usage("unknown argument '\(argument)'")
            }
        }
        if selected.isEmpty { selected = groups }

        var results: [Measurement] = []
        let report: (Measurement) -> Void = { measurement in
            results.append(measurement)
            if json {
                print(measurement.json)
            } else {
                FileHandle.standardError.write(Data("  \(measurement.group) \(measurement.caseName) \(measurement.size) \(measurement.subject): \(Measurement.number(measurement.nsPerOp)) ns\n".utf8))
            }
        }
        for group in groups where selected.contains(group) {
            switch group {
            case "routing": RoutingGroup.run(report: report)
            case "resolution": try await ResolutionGroup.run(rounds: Timer.batches).forEach(report)
            case "aasa": AASAGroup.run(report: report)
            case "broadcast": BroadcastGroup.run(report: report)
            case "manager": await ManagerGroup.run(rounds: Timer.batches).forEach(report)
            case "tls": try await TLSBurstGroup.run(rounds: Timer.batches).forEach(report)
            default: break
            }
        }
        if !json { print(Table.render(results)) }
    }

    static let helpText = """
        usage: link-benchmarks [--json] [--filter GROUP]... [--quick]
               link-benchmarks --profile NAME [ITERATIONS]
          --json          one JSON object per measurement instead of the table
          --filter GROUP  only this group (routing, resolution, aasa, broadcast, manager, tls); repeatable
          --quick         fewer, shorter batches (smoke runs only)
          --profile NAME  run one case untimed for callgrind. NAME is one of:
                          \(Profile.names.joined(separator: ", "))
        """

    static func usage(_ message: String) -> Never {
        FileHandle.standardError.write(Data("link-benchmarks: \(message)\n\(helpText)\n".utf8))
        exit(2)
    }
}
