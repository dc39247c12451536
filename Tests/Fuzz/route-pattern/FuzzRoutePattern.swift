import Foundation
@testable import LinkRouting

// The route-pattern compiler (LinkRouting): the input's first line is a pattern (optional groups, variables,
// wildcards, host-aware forms), the rest a URL routed against it. Nothing may crash, hang or exhaust memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoutePattern(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let pattern = String(parts[0])
    let url = parts.count > 1 ? String(parts[1]) : "/"
    _ = OptionalGroupExpander.isBalanced(pattern)
    _ = CompiledPattern.compile(pattern)
    let router = LinkRouter(options: .init(decodePlusSymbols: size % 2 == 0))
    router.addRoute(pattern) { _ in true }
    router.addRoute("/fixed/:id", priority: 1) { _ in true }
    router.addRoute(pattern, namespace: .scheme("app"), priority: -1) { _ in false }
    _ = router.route(url)
    _ = router.canRoute(url)
    _ = router.explain(url)
    _ = router.diagnostics
    _ = router.removeRoute(pattern)
    return 0
}
