import Foundation
import LinkRouting
import Synchronization
import _LinkKitLocking

/// `linux-host route --table FILE [--can-route] URL...` (LinkRouting, issue 3).
///
/// Loads a JSON route table, routes each URL in input order and prints one JSON line per URL:
/// `{"url": <as given>, "routed": bool, "parameters": {...} | null}`, or with `--can-route`
/// `{"url": <as given>, "canRoute": bool}`. Exit status 0 when every URL routed (or could route), 1 otherwise,
/// 2 for a usage error or a table that cannot be read, with a message naming the bad key.
enum RouteCommand {
    static func run(_ arguments: [String]) -> Int32 {
        var tablePath: String?
        var canRouteOnly = false
        var urls: [String] = []
        var optionsEnded = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("--") {
                urls.append(argument)
                continue
            }
            switch argument {
            case "--":
                optionsEnded = true
            case "--can-route":
                canRouteOnly = true
            case "--table":
                guard index < arguments.count else { return Console.usageError("route: --table needs a FILE") }
                tablePath = arguments[index]
                index += 1
            case _ where argument.hasPrefix("--table="):
                tablePath = String(argument.dropFirst("--table=".count))
            default:
                return Console.usageError("route: unknown option '\(argument)'")
            }
        }
        guard let tablePath, !tablePath.isEmpty else { return Console.usageError("route: --table FILE is required") }
        guard !urls.isEmpty else { return Console.usageError("route: give at least one URL") }

        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: tablePath))
        } catch {
            Console.err("linux-host: route: cannot read the table '\(tablePath)': \(error.localizedDescription)")
            return 2
        }
        let table: RouteTable
        do {
            table = try RouteTable(json: data)
        } catch {
            Console.err("linux-host: route: table '\(tablePath)': \(error)")
            return 2
        }

        let accepted = Mutex<RouteParameters?>(nil)
        let router = table.makeRouter { route, parameters in
            if route.handles { accepted.withTrackedLock { $0 = parameters } }
        }

        var allRouted = true
        for url in urls {
            if canRouteOnly {
                let canRoute = router.canRoute(url)
                allRouted = allRouted && canRoute
                Console.out(Console.jsonLine(["url": url, "canRoute": canRoute] as [String: Any]))
                continue
            }
            accepted.withTrackedLock { $0 = nil }
            let routed = router.route(url)
            allRouted = allRouted && routed
            let parameters: Any = routed ? accepted.withTrackedLock { $0 }.map(jsonObject) ?? NSNull() : NSNull()
            Console.out(Console.jsonLine(["url": url, "routed": routed, "parameters": parameters] as [String: Any]))
        }
        return allRouted ? 0 : 1
    }

    /// The handler's dictionary as JSON: strings, and arrays of strings for repeated query keys and wildcards.
    private static func jsonObject(_ parameters: RouteParameters) -> [String: Any] {
        var object: [String: Any] = [:]
        for (key, value) in parameters.values {
            switch value {
            case .string(let string): object[key] = string
            case .strings(let strings): object[key] = strings
            }
        }
        return object
    }
}
