import Foundation
import LinkRouting
import Synchronization
internal import _LinkKitText

/// `linux-host route --table FILE [--can-route] [--explain] [--disable-group NAME]... URL...` (LinkRouting).
///
/// Loads a JSON route table, routes each URL in input order and prints one JSON line per URL:
/// `{"url": <as given>, "routed": bool, "parameters": {...} | null}`, or with `--can-route`
/// `{"url": <as given>, "canRoute": bool}`; `--explain` adds `"explanation"`, why the URL matched or did not.
/// The table's diagnostics (keys that repeat in the JSON, duplicate and shadowed routes) go to stderr as warnings. Exit status 0 when every
/// URL routed (or could route), 1 otherwise, 2 for a usage error or a table that cannot be read, with a message
/// naming the bad key.
enum RouteCommand {
    /// The largest route table read.
    static let maximumTableSize = 8 << 20

    /// The options of `route`, each declared once.
    enum Options {
        static let table = OptionKey.required(
            "table", "FILE", "the route table (JSON: options, namespaces, routes)",
            as: .regularFile(maximumSize: maximumTableSize))
        static let canRoute = OptionKey.flag("can-route", "only say whether each URL would route; no handler runs")
        static let explain = OptionKey.flag(
            "explain", "say which route each URL matched, or the nearest routes and where they stop matching")
        static let disableGroup = OptionKey.repeatable(
            "disable-group", "NAME", "switch the routes of this group off", as: .string)
        static let all: [any DeclaredOption] = [table, canRoute, explain, disableGroup]
    }

    static let command = Command(
        name: "route",
        summary: "Routes URLs through a JSON route table as JLRoutes would, printing each handler's parameters.",
        details: """
            Output: one JSON object per URL, {"url", "routed", "parameters"} (or {"url", "canRoute"}), plus
            "explanation" with --explain. Warnings (repeated keys, duplicate and shadowed routes) go to stderr.
            Exit status: 0 when every URL routed, 1 otherwise, 2 for a usage error or an unreadable table.
            """,
        arguments: [CommandArgument("URL", "a URL to route", repeatable: true)],
        options: Options.all.map(\.declaration),
        run: { parsed throws(UsageError) in try run(parsed) })

    static func run(_ parsed: ParsedCommand) throws(UsageError) -> Int32 {
        let file = try parsed.value(Options.table)
        let table: RouteTable
        do {
            table = try RouteTable(json: Data(file.bytes))
        } catch {
            Console.err("linux-host: route: table '\(file.path)': \(error)")
            return 2
        }

        // Only ever touched on this thread, inside `route(_:)`; the lock satisfies the handler's `Sendable`. Routes
        // are tried in order, so after a URL routed, the last call is the accepting route's.
        let lastCall = Mutex<RouteParameters?>(nil)
        let router = table.makeRouter { parameters in lastCall.withLock { $0 = parameters } }
        for diagnostic in router.diagnostics {
            Console.err("linux-host: route: warning: \(diagnostic)")
        }
        let groups = Set(table.namespaces.flatMap { $0.routes.compactMap(\.group) })
        for group in try parsed.value(Options.disableGroup) {
            if !groups.contains(group) {
                Console.err("linux-host: route: warning: no route of the table is in group '\(group)'")
            }
            router.setGroup(group, enabled: false)
        }

        let explain = try parsed.value(Options.explain)
        let onlyCanRoute = try parsed.value(Options.canRoute)
        var allRouted = true
        for url in parsed.positionals {
            var line: [String: JSONValue] = ["url": .string(url)]
            if onlyCanRoute {
                let canRoute = router.canRoute(url)
                allRouted = allRouted && canRoute
                line["canRoute"] = .bool(canRoute)
            } else {
                lastCall.withLock { $0 = nil }
                let routed = router.route(url)
                allRouted = allRouted && routed
                line["routed"] = .bool(routed)
                line["parameters"] = routed ? lastCall.withLock { $0 }.map(jsonObject) ?? .null : .null
            }
            if explain {
                line["explanation"] = .string(router.explain(url)?.description ?? "\(url) is not a URL")
            }
            Console.out(Console.jsonLine(line))
        }
        return allRouted ? 0 : 1
    }

    /// The handler's dictionary as JSON: strings, and arrays of strings for repeated query keys and wildcards.
    private static func jsonObject(_ parameters: RouteParameters) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for (key, value) in parameters.values {
            switch value {
            case .string(let string): object[key] = .string(string)
            case .strings(let strings): object[key] = .array(strings.map { .string($0) })
            }
        }
        return Console.sortedObject(object)
    }
}
