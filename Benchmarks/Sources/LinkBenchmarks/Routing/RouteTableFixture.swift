/// The generated table every router gets: N resources, each with four routes, registered resource by resource.
///
/// `/resI/:id`, `/resI/:id/details`, `/resI/list/all`, `/resI/:id/comments/:cid`; so N resources are 4N routes.
struct RouteTableFixture {
    let resources: Int

    var patterns: [String] {
        (0..<resources).flatMap { Self.patterns(resource: $0) }
    }

    static func patterns(resource: Int) -> [String] {
        let base = "/res\(resource)"
        return ["\(base)/:id", "\(base)/:id/details", "\(base)/list/all", "\(base)/:id/comments/:cid"]
    }

    /// The URLs of the four cases, as a user hands them over: full strings with a dotted host (never a path
    /// component) and a query, so every router pays for cutting the path out.
    func url(for routingCase: RoutingCase) -> String {
        switch routingCase {
        case .hitFirstParam2: "https://www.example.com/res0/42/comments/7?utm_source=mail"
        case .hitLastParam2: "https://www.example.com/res\(resources - 1)/42/comments/7?utm_source=mail"
        case .hitStatic: "https://www.example.com/res\(resources - 1)/list/all?utm_source=mail"
        case .miss: "https://www.example.com/nothing/42/comments/7?utm_source=mail"
        }
    }
}

/// The routing cases; raw values are the JSON case names.
enum RoutingCase: String, CaseIterable {
    case hitFirstParam2 = "hit_first_param2"
    case hitLastParam2 = "hit_last_param2"
    case hitStatic = "hit_static"
    case miss = "miss"

    var expectsHit: Bool { self != .miss }
}

/// The path of a URL string, cut out on bytes: what a server framework gets from its HTTP parser, and what the
/// peers that take a path (RoutingKit, Hummingbird, the linear scan) are given in the "split included" numbers.
func pathOfURLString(_ url: String) -> Substring {
    let utf8 = url.utf8
    var start = utf8.startIndex
    // After `scheme://`, skip the authority up to the path's first `/`.
    if let colon = utf8.firstIndex(of: UInt8(ascii: ":")) {
        let afterColon = utf8.index(after: colon)
        if utf8[afterColon...].starts(with: "//".utf8) {
            let authority = utf8.index(afterColon, offsetBy: 2)
            start = utf8[authority...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
        }
    }
    let end = utf8[start...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? utf8.endIndex
    return url[start..<end]
}
