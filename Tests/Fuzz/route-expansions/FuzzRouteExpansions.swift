import Foundation
@testable import LinkRouting

// Route tables with optional-group expansions (LinkRouting): each line of the input is a route pattern, most with
// `( )` groups. They are registered in a router with a small table-wide budget, and loaded as a route table. The
// router never holds more expanded routes than its budget allows, and a table the reader accepts stays within the
// table-wide limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteExpansions(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let patterns = text.split(separator: "\n").prefix(16).map(String.init)
    let budget = 256
    let router = LinkRouter(maximumExpansions: budget)
    for pattern in patterns {
        router.addRoute(pattern) { _ in true }
    }
    precondition(router.routes().count <= patterns.count + budget, "the router expanded past its budget")
    for pattern in patterns {
        _ = router.canRoute("app:/" + pattern.filter { $0 != "(" && $0 != ")" })
    }

    let routes = patterns.map { ["pattern": $0] }
    guard !routes.isEmpty,
          let json = try? JSONSerialization.data(withJSONObject: ["namespaces": [["scheme": "app", "routes": routes]]])
    else { return 0 }
    if let table = try? RouteTable(json: json) {
        let expansions = table.namespaces[0].routes.map { OptionalGroupExpander.expansionCount($0.pattern) }.filter { $0 > 1 }
        precondition(expansions.reduce(0, +) <= OptionalGroupExpander.maximumTableExpansions, "a table over the limit loaded")
    }
    return 0
}
