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
///
/// Components are kept as ranges into one byte buffer (the text's bytes, followed by any path that had to be
/// assembled from pieces), and the query as ranges too: a routed URL allocates a handful of buffers, not one per
/// component, and its query is only decoded when a handler asks for it.
struct RouteRequest: Sendable {
    /// The URL given by the caller; `nil` when routing text whose `URL` is made only when something asks for it.
    let givenURL: URL?
    /// Where the scheme ends in ``bytes`` (its `:`), 0 for a relative URL.
    private let schemeEnd: Int
    /// The host in ``bytes``, still percent-encoded; `nil` when the URL has no authority.
    private let hostRange: Range<Int>?
    /// The text ``RouteKey/url`` reports: the string routed, or the URL's absolute string.
    let text: String
    /// The text's UTF-8 bytes, followed by the paths assembled from pieces (fragment paths, a collapsed host path).
    let bytes: [UInt8]
    /// The ranges in ``bytes`` of the path components (``componentSpans``), then of the hostless ones.
    private let spans: [Range<Int>]
    /// Where the components JLRoutes matches are in ``spans`` (the host included when it counts as a component).
    let componentSpans: Range<Int>
    /// Where the components without the host, for host-aware routes, are in ``spans``; empty when the URL has no
    /// host, or when the request was made for a router without host-aware routes (nothing reads them then).
    let hostlessSpans: Range<Int>
    /// The URL's query in ``bytes``, without its `?`.
    private let queryRange: Range<Int>?
    /// The fragment in ``bytes`` when it is a query, merged after the URL's own.
    private let fragmentQueryRange: Range<Int>?

    /// Splits `text`, which is `url`'s absolute string or the string `url` was made from.
    ///
    /// Splitting the caller's string rather than `url.absoluteString` matters for malformed escapes: Foundation's
    /// `URL(string:)` re-encodes every `%` of a URL that has one bad escape, so `a%zz?r=%E2%82%AC` would lose its `€`.
    ///
    /// `splitsHostlessPath` may be `false` when no host-aware route exists: splitting the path a second time is
    /// then wasted work on every routed URL.
    init(text: String, url: URL?, alwaysTreatsHostAsPathComponent: Bool, splitsHostlessPath: Bool = true) {
        self.givenURL = url
        self.text = text
        var bytes = Array(text.utf8)
        let count = bytes.count

        let layout = bytes.withUnsafeBufferPointer(Self.locate)
        self.schemeEnd = layout.schemeEnd
        let hostRange = layout.hostRange
        self.hostRange = hostRange
        let fragmentStart = layout.fragmentStart
        let queryStart = layout.queryStart
        let position = layout.pathStart
        let beforeFragmentEnd = fragmentStart ?? count
        let pathRange = position..<(queryStart ?? beforeFragmentEnd)
        self.queryRange = queryStart.map { ($0 + 1)..<beforeFragmentEnd }

        // Decoding never empties a non-empty host, so "has a decoded host" is "has a non-empty host".
        let hasHost = hostRange.map { !$0.isEmpty } ?? false

        var fragmentQueryRange: Range<Int>?
        var fragmentPathRange: Range<Int>?
        if let fragmentStart {
            let fragment = (fragmentStart + 1)..<count
            let fragmentQueryStart = bytes[fragment].firstIndex(of: UInt8(ascii: "?"))
            let fragmentPath = fragment.lowerBound..<(fragmentQueryStart ?? count)
            // JLRoutes sets the fragment's query to its path when it has none, then asks whether that is a query.
            let fragmentQuery = fragmentQueryStart.map { ($0 + 1)..<count } ?? fragmentPath
            let isQuery = Self.firstItemHasValue(bytes[fragmentQuery])
            if isQuery { fragmentQueryRange = fragmentQuery }
            if !isQuery || !bytes[fragmentPath].elementsEqual(bytes[fragmentQuery]) {
                fragmentPathRange = fragmentPath
            }
        }
        self.fragmentQueryRange = fragmentQueryRange

        let hostIsComponent = hasHost && (alwaysTreatsHostAsPathComponent || Self.isPathComponentHost(bytes[hostRange ?? 0..<0]))
        var spans: [Range<Int>] = []
        spans.reserveCapacity(8)
        if let fragmentPathRange {
            // The path and the fragment's path are not next to each other in the text: assemble them, as JLRoutes
            // does, after the text's bytes.
            var joined = Array(bytes[pathRange])
            if hostIsComponent, let hostRange { joined = Self.appendingPathComponent(Array(bytes[hostRange]), joined) }
            joined.append(UInt8(ascii: "#"))
            joined += bytes[fragmentPathRange]
            let start = bytes.count
            bytes += joined
            Self.split(bytes, start..<bytes.count, into: &spans)
        } else if hostIsComponent, let hostRange {
            // `host/` + path with runs of `/` collapsed and no trailing `/`: the host, then the path's non-empty parts.
            spans.append(hostRange)
            bytes.withUnsafeBufferPointer { buffer in
                var componentStart = pathRange.lowerBound
                for index in pathRange where buffer[index] == UInt8(ascii: "/") {
                    if componentStart < index { spans.append(componentStart..<index) }
                    componentStart = index + 1
                }
                if componentStart < pathRange.upperBound { spans.append(componentStart..<pathRange.upperBound) }
            }
        } else {
            Self.split(bytes, pathRange, into: &spans)
        }
        self.componentSpans = 0..<spans.count

        if hasHost, splitsHostlessPath {
            if !hostIsComponent {
                self.hostlessSpans = componentSpans
            } else {
                let first = spans.count
                if let fragmentPathRange {
                    let start = bytes.count
                    bytes += bytes[pathRange]
                    bytes.append(UInt8(ascii: "#"))
                    bytes += bytes[fragmentPathRange]
                    Self.split(bytes, start..<bytes.count, into: &spans)
                } else {
                    Self.split(bytes, pathRange, into: &spans)
                }
                self.hostlessSpans = first..<spans.count
            }
        } else {
            self.hostlessSpans = spans.count..<spans.count
        }
        self.spans = spans
        self.bytes = bytes
    }

    /// Splits `text` with a `URL` made from it, as ``LinkRouter/route(_:parameters:)-(URL,_)`` and tests do.
    init(text: String, url: URL, alwaysTreatsHostAsPathComponent: Bool) {
        self.init(text: text, url: Optional(url), alwaysTreatsHostAsPathComponent: alwaysTreatsHostAsPathComponent)
    }

    // MARK: - Reading

    /// The scheme exactly as written (namespaces are chosen case-sensitively), `nil` for a relative URL.
    var scheme: String? {
        schemeEnd > 0 ? String(decoding: bytes[0..<schemeEnd], as: UTF8.self) : nil
    }

    /// The host, percent-decoded, `nil` when the URL has no authority or an empty host.
    var host: String? {
        guard let hostRange, !hostRange.isEmpty else { return nil }
        return PercentDecoding.decode(String(decoding: bytes[hostRange], as: UTF8.self))
    }

    /// Whether the scheme is `scheme`, compared without making a string.
    func hasScheme(_ scheme: String) -> Bool {
        schemeEnd > 0 && bytes[0..<schemeEnd].elementsEqual(scheme.utf8)
    }

    /// The ranges in ``bytes`` of the components a route matches against: hostless ones for host-aware routes.
    func spans(hostAware: Bool) -> ArraySlice<Range<Int>> {
        spans[hostAware ? hostlessSpans : componentSpans]
    }

    /// Path components as JLRoutes matches them (the host included when it counts as a path component).
    var components: [[UInt8]] {
        spans(hostAware: false).map { Array(bytes[$0]) }
    }

    /// Path components without the host (see ``hostlessSpans``).
    var hostlessComponents: [[UInt8]] {
        spans(hostAware: true).map { Array(bytes[$0]) }
    }

    /// The URL given, or one made from the text (which ``RouteURLText`` or the caller has checked parses).
    func makeURL() -> URL? {
        givenURL ?? URL(string: text)
    }

    /// Query items (fragment query included), in order, percent-decoded, those without `=` already dropped.
    var queryItems: [(name: String, value: String)] {
        var items = queryRange.map { Self.queryItems(of: bytes[$0]) } ?? []
        if let fragmentQueryRange { items += Self.queryItems(of: bytes[fragmentQueryRange]) }
        return items
    }

    /// The values of the query items named `name`, in order, `+` turned into spaces when asked.
    func queryValues(named name: String, decodePlusSymbols: Bool) -> [String] {
        var values: [String] = []
        for (itemName, value) in queryItems where itemName == name {
            values.append(decodePlusSymbols ? PercentDecoding.plusToSpace(value) : value)
        }
        return values
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

    /// Whether the first `&`-separated item of `query` has an `=` followed by at least one byte: what
    /// `rawQueryItems(of:).first?.value?.isEmpty == false` says (decoding never empties a non-empty value).
    private static func firstItemHasValue(_ query: ArraySlice<UInt8>) -> Bool {
        var index = query.startIndex
        while index < query.endIndex, query[index] != UInt8(ascii: "&") {
            if query[index] == UInt8(ascii: "=") {
                let next = index + 1
                return next < query.endIndex && query[next] != UInt8(ascii: "&")
            }
            index += 1
        }
        return false
    }

    /// JLRoutes' test on the decoded host: not `localhost` and no dot. Read from the bytes when nothing is escaped.
    private static func isPathComponentHost(_ host: ArraySlice<UInt8>) -> Bool {
        guard !host.contains(UInt8(ascii: "%")) else {
            let decoded = PercentDecoding.decode(String(decoding: host, as: UTF8.self))
            return decoded != "localhost" && !decoded.utf8.contains(UInt8(ascii: "."))
        }
        return !host.contains(UInt8(ascii: ".")) && !host.elementsEqual("localhost".utf8)
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
        var spans: [Range<Int>] = []
        split(path, path.indices, into: &spans)
        return spans.map { Array(path[$0]) }
    }

    /// ``split(_:)`` of `bytes[range]`, appending the components' ranges to `spans`.
    private static func split(_ bytes: [UInt8], _ range: Range<Int>, into spans: inout [Range<Int>]) {
        bytes.withUnsafeBufferPointer { bytes in
            var start = range.lowerBound
            var end = range.upperBound
            if start < end, bytes[start] == UInt8(ascii: "/") { start += 1 }
            if start < end, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
            var componentStart = start
            for index in start..<end where bytes[index] == UInt8(ascii: "/") {
                spans.append(componentStart..<index)
                componentStart = index + 1
            }
            spans.append(componentStart..<end)
        }
    }

    /// Where the parts of a URL's text are.
    private struct Layout {
        /// The scheme's `:`, 0 for a relative URL.
        var schemeEnd = 0
        /// The host (user info and port removed), when the text has an authority.
        var hostRange: Range<Int>?
        /// Where the path starts (after the authority).
        var pathStart = 0
        /// The first `?` before the fragment.
        var queryStart: Int?
        /// The first `#`.
        var fragmentStart: Int?
    }

    /// One pass over the text: scheme, authority, query and fragment.
    private static func locate(_ bytes: UnsafeBufferPointer<UInt8>) -> Layout {
        var layout = Layout()
        let count = bytes.count
        var position = 0
        // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        if count > 0, RouteURLText.isAlpha(bytes[0]) {
            var end = 1
            while end < count, RouteURLText.isSchemeByte(bytes[end]) { end += 1 }
            if end < count, bytes[end] == UInt8(ascii: ":") {
                layout.schemeEnd = end
                position = end + 1
            }
        }
        if position + 1 < count, bytes[position] == UInt8(ascii: "/"), bytes[position + 1] == UInt8(ascii: "/") {
            let start = position + 2
            var end = start
            var lastAt: Int?
            var firstColon: Int?
            while end < count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                if byte == UInt8(ascii: "@") { lastAt = end; firstColon = nil }
                if byte == UInt8(ascii: ":"), firstColon == nil { firstColon = end }
                end += 1
            }
            // The host: after the last `@`; up to the first `]` for an IPv6 literal, else up to the first `:`.
            let hostStart = lastAt.map { $0 + 1 } ?? start
            if hostStart < end, bytes[hostStart] == UInt8(ascii: "[") {
                var close = hostStart
                while close < end, bytes[close] != UInt8(ascii: "]") { close += 1 }
                layout.hostRange = hostStart..<min(close + 1, end)
            } else {
                layout.hostRange = hostStart..<(firstColon ?? end)
            }
            position = end
        }
        layout.pathStart = position
        // libc's vectorised `memchr` over the rest of the text, usually most of it: the first `#`, then the first
        // `?` before it.
        guard position < count, let base = bytes.baseAddress else { return layout }
        var end = count
        if let hash = memchr(base + position, Int32(UInt8(ascii: "#")), count - position) {
            end = base.distance(to: hash.assumingMemoryBound(to: UInt8.self))
            layout.fragmentStart = end
        }
        if position < end, let question = memchr(base + position, Int32(UInt8(ascii: "?")), end - position) {
            layout.queryStart = base.distance(to: question.assumingMemoryBound(to: UInt8.self))
        }
        return layout
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
