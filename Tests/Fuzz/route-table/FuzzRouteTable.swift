import Foundation
@testable import LinkRouting

// The route-table loader (LinkRouting): any bytes as a JSON route table. A table that loads must dump to JSON
// that loads to an equal table, and build a router.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteTable(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let json = Data(UnsafeBufferPointer(start: data, count: size))
    guard let table = try? RouteTable(json: json) else { return 0 }
    let dumped = table.jsonData()
    guard let reloaded = try? RouteTable(json: dumped) else {
        fatalError("a loaded table's dump does not load: \(String(decoding: dumped, as: UTF8.self))")
    }
    // The dump writes each key once, so what reading found (repeated keys) is not there to find again.
    var read = reloaded
    read.diagnostics = table.diagnostics
    precondition(read == table, "load -> dump -> load changed the table")
    let router = table.makeRouter()
    _ = router.route("app://a/b?c=d")
    return 0
}
