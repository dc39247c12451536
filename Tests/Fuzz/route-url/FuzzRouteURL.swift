import Foundation
@testable import LinkRouting

// The URL splitter and percent-decoder (LinkRouting), fed any bytes: as the raw text `route(_: String)` splits,
// through Foundation's URL, and straight into the decoder. Nothing may crash or hang. The same bytes as a route
// parameter: a URL built for a named route must match that route with exactly that value.
let router: LinkRouter = {
    let router = LinkRouter()
    for pattern in ["/", "/:a", "/a/:b/*", "/user/view/:id", "/x(/:y)(/:z)", "https://www.example.com/invites/:code",
                    "*.example.com/:p"] {
        router.addRoute(pattern, name: pattern) { _ in true }
    }
    router.addRoute("/p/:q", namespace: .scheme("app"), priority: 3) { _ in false }
    router.addNamespace("app", fallsBackToGlobalRoutes: true)
    return router
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteURL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    _ = router.route(text)
    _ = router.canRoute(text)
    _ = router.explain(text)
    precondition((router.match(text) != nil) == router.canRoute(text), "match and canRoute disagree on \(text)")
    _ = router.routeReturningMatch(text)
    _ = try? router.url(forRoute: "/x(/:y)(/:z)", parameters: ["y": text, "z": text], scheme: "fuzz")
    // Nothing ranked before `/user/view/:id` matches a three-component `fuzz:` URL starting `user/view`.
    if let url = try? router.url(forRoute: "/user/view/:id", parameters: ["id": text], scheme: "fuzz") {
        let matched = router.match(url)
        precondition(matched?.pattern == "/user/view/:id" && matched?.parameters == ["id": text], "\(url) lost \(text)")
    }
    _ = PercentDecoding.decode(text)
    _ = PercentDecoding.plusToSpace(text)
    _ = RouteRequest.split(bytes)
    _ = RouteRequest.rawQueryItems(of: bytes[...])
    if let url = URL(string: text) {
        _ = router.route(url)
        for hostAsPath in [false, true] {
            let request = RouteRequest(text: text, url: url, alwaysTreatsHostAsPathComponent: hostAsPath)
            _ = request.queryParameters(decodePlusSymbols: hostAsPath)
        }
    }
    return 0
}
