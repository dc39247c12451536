import Foundation

/// A URL split the way JLRoutes 2.1 splits it, from the bytes of its absolute string.
///
/// `URLComponents` is not used: on Linux it re-encodes a whole component after one bad escape, and
/// `NSString.appendingPathComponent` does not collapse `//` there. The rules, each from JLRRouteRequest:
/// - the host becomes the first path component when `alwaysTreatsHostAsPathComponent` is on, or when it is not
///   empty, not `localhost` and contains no dot; the joined path then has runs of `/` collapsed and a trailing `/`
///   removed, as Darwin's `appendingPathComponent` does;
/// - a fragment is parsed as a small URL of its own: when it is a query (its first item has a non-empty value) its
///   items are merged after the URL's query; otherwise, or when it also has a path, `#` + its path is appended to
///   the path;
/// - one leading and one trailing `/` are removed and the still percent-encoded path is split on `/`;
/// - query items without `=` are dropped, repeated names become arrays, names and values are percent-decoded.
struct RouteRequest: Sendable {
    /// The URL as given by the caller.
    let url: URL
    /// The scheme exactly as written (namespaces are chosen case-sensitively), `nil` for a relative URL.
    let scheme: String?
    /// The host, percent-decoded, `nil` when the URL has no authority or an empty host.
    let host: String?
    /// Path components as JLRoutes matches them (the host included when it counts as a path component).
    let components: [[UInt8]]
    /// Path components without the host, for host-aware routes; empty when the URL has no host, or when the
    /// request was made for a router without host-aware routes (nothing reads them then).
    let hostlessComponents: [[UInt8]]
    /// Query items (fragment query included), in order, percent-decoded, those without `=` already dropped.
    let queryItems: [(name: String, value: String)]

    /// The text ``RouteKey/url`` reports: the string routed, or the URL's absolute string.
    let text: String

    /// Splits `text`, which is `url`'s absolute string or the string `url` was made from.
    ///
    /// Splitting the caller's string rather than `url.absoluteString` matters for malformed escapes: Foundation's
    /// `URL(string:)` re-encodes every `%` of a URL that has one bad escape, so `a%zz?r=%E2%82%AC` would lose its `€`.
    ///
    /// `splitsHostlessPath` may be `false` when no host-aware route exists: splitting the path a second time is
    /// then wasted work on every routed URL.
    init(text: String, url: URL, alwaysTreatsHostAsPathComponent: Bool, splitsHostlessPath: Bool = true) {
        self.url = url
        self.text = text
        let bytes = Array(text.utf8)
        var rest = bytes[...]

        // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        var scheme: String?
        if let first = rest.first, Self.isAlpha(first),
           let colon = rest.firstIndex(where: { !Self.isSchemeByte($0) }), rest[colon] == UInt8(ascii: ":") {
            scheme = String(decoding: rest[rest.startIndex..<colon], as: UTF8.self)
            rest = rest[(colon + 1)...]
        }
        self.scheme = scheme

        var encodedHost: ArraySlice<UInt8>?
        if rest.count >= 2, rest[rest.startIndex] == UInt8(ascii: "/"), rest[rest.startIndex + 1] == UInt8(ascii: "/") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? rest.endIndex
            encodedHost = Self.hostPart(of: rest[rest.startIndex..<end])
            rest = rest[end...]
        }

        let fragmentStart = rest.firstIndex(of: UInt8(ascii: "#"))
        let beforeFragment = rest[rest.startIndex..<(fragmentStart ?? rest.endIndex)]
        let fragment = fragmentStart.map { rest[($0 + 1)...] }
        let queryStart = beforeFragment.firstIndex(of: UInt8(ascii: "?"))
        let path = beforeFragment[beforeFragment.startIndex..<(queryStart ?? beforeFragment.endIndex)]
        let query = queryStart.map { beforeFragment[($0 + 1)...] }

        let decodedHost = encodedHost.flatMap { $0.isEmpty ? nil : PercentDecoding.decode(String(decoding: $0, as: UTF8.self)) }
        self.host = decodedHost

        var items = query.map(Self.queryItems(of:)) ?? []
        var fragmentPathSuffix: [UInt8]?
        if let fragment {
            let fragmentQueryStart = fragment.firstIndex(of: UInt8(ascii: "?"))
            let fragmentPath = fragment[fragment.startIndex..<(fragmentQueryStart ?? fragment.endIndex)]
            // JLRoutes sets the fragment's query to its path when it has none, then asks whether that is a query.
            let fragmentQuery = fragmentQueryStart.map { fragment[($0 + 1)...] } ?? fragmentPath
            let fragmentItems = Self.rawQueryItems(of: fragmentQuery)
            let isQuery = fragmentItems.first.map { ($0.value?.isEmpty == false) } ?? false
            if isQuery {
                items += fragmentItems.compactMap { item in item.value.map { (item.name, $0) } }
            }
            if !isQuery || !fragmentPath.elementsEqual(fragmentQuery) {
                fragmentPathSuffix = [UInt8(ascii: "#")] + fragmentPath
            }
        }
        self.queryItems = items

        var jlPath = Array(path)
        if let encodedHost, let decodedHost,
           alwaysTreatsHostAsPathComponent || (decodedHost != "localhost" && !decodedHost.utf8.contains(UInt8(ascii: "."))) {
            jlPath = Self.appendingPathComponent(Array(encodedHost), jlPath)
        }
        if let fragmentPathSuffix { jlPath += fragmentPathSuffix }
        self.components = Self.split(jlPath)

        if decodedHost != nil, splitsHostlessPath {
            var hostless = Array(path)
            if let fragmentPathSuffix { hostless += fragmentPathSuffix }
            self.hostlessComponents = Self.split(hostless)
        } else {
            self.hostlessComponents = []
        }
    }

    /// Query parameters in the JLRoutes dictionary shape: one value, or an array for a repeated name.
    func queryParameters(decodePlusSymbols: Bool) -> [String: RouteParameters.Value] {
        var result: [String: RouteParameters.Value] = [:]
        for (name, rawValue) in queryItems {
            let value = decodePlusSymbols ? PercentDecoding.plusToSpace(rawValue) : rawValue
            switch result[name] {
            case nil: result[name] = .string(value)
            case .string(let existing): result[name] = .strings([existing, value])
            case .strings(let existing): result[name] = .strings(existing + [value])
            }
        }
        return result
    }

    // MARK: - Byte helpers

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isAlpha(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// The host of an authority: user info (up to the last `@`) and port removed, IPv6 brackets kept.
    static func hostPart(of authority: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var host = authority
        if let at = host.lastIndex(of: UInt8(ascii: "@")) { host = host[(at + 1)...] }
        if host.first == UInt8(ascii: "[") {
            if let close = host.firstIndex(of: UInt8(ascii: "]")) { return host[host.startIndex...close] }
            return host
        }
        if let colon = host.firstIndex(of: UInt8(ascii: ":")) { host = host[host.startIndex..<colon] }
        return host
    }

    /// Darwin's `appendingPathComponent`: joins with one `/`, collapses `//`, drops a trailing `/`.
    static func appendingPathComponent(_ base: [UInt8], _ component: [UInt8]) -> [UInt8] {
        var joined: [UInt8] = []
        joined.reserveCapacity(base.count + component.count + 1)
        for byte in base + [UInt8(ascii: "/")] + component {
            if byte == UInt8(ascii: "/"), joined.last == UInt8(ascii: "/") { continue }
            joined.append(byte)
        }
        if joined.count > 1, joined.last == UInt8(ascii: "/") { joined.removeLast() }
        return joined
    }

    /// Removes one leading and one trailing `/`, then splits on `/` (an empty path is one empty component).
    static func split(_ path: [UInt8]) -> [[UInt8]] {
        var start = 0
        var end = path.count
        if start < end, path[start] == UInt8(ascii: "/") { start += 1 }
        if start < end, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
        // One pass over the bytes, no intermediate slices: this runs for every routed URL.
        var components: [[UInt8]] = []
        components.reserveCapacity(8)
        path.withUnsafeBufferPointer { bytes in
            var componentStart = start
            for index in start..<end where bytes[index] == UInt8(ascii: "/") {
                components.append(Array(UnsafeBufferPointer(rebasing: bytes[componentStart..<index])))
                componentStart = index + 1
            }
            components.append(Array(UnsafeBufferPointer(rebasing: bytes[componentStart..<end])))
        }
        return components
    }

    /// Query items with `nil` values for items without `=`, names and values percent-decoded.
    static func rawQueryItems(of query: ArraySlice<UInt8>) -> [(name: String, value: String?)] {
        if query.isEmpty { return [] }
        return query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).map { item in
            guard let equals = item.firstIndex(of: UInt8(ascii: "=")) else {
                return (PercentDecoding.decode(String(decoding: item, as: UTF8.self)), nil)
            }
            let name = String(decoding: item[item.startIndex..<equals], as: UTF8.self)
            let value = String(decoding: item[(equals + 1)...], as: UTF8.self)
            return (PercentDecoding.decode(name), PercentDecoding.decode(value))
        }
    }

    private static func queryItems(of query: ArraySlice<UInt8>) -> [(name: String, value: String)] {
        rawQueryItems(of: query).compactMap { item in item.value.map { (item.name, $0) } }
    }
}
