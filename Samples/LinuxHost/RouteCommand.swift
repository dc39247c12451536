/// `linux-host route --table FILE [--can-route] URL...` (LinkRouting, issue 3).
enum RouteCommand {
    static func run(_ arguments: [String]) -> Int32 {
        Console.usageError("route: not implemented yet")
    }
}
