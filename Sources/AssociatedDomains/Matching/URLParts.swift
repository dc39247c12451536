/// The parts of a URL string, cut at the byte level so encoded and decoded comparisons are exact and identical
/// on every platform (no `URLComponents`, whose re-encoding differs between Linux and Darwin).
struct URLParts: Sendable {
    /// The scheme, lower-cased.
    var scheme: [UInt8]
    /// The host, lower-cased, without user info, port or IPv6 brackets.
    var host: [UInt8]
    /// The raw path as written (may be empty).
    var path: [UInt8]
    /// The raw query without `?`, or `nil` when the URL has no `?`.
    var query: [UInt8]?
    /// The raw fragment without `#`, or `nil` when the URL has no `#`.
    var fragment: [UInt8]?

    /// Splits an absolute URL `scheme://authority/path?query#fragment`; `nil` when there is no scheme or
    /// no `//` authority.
    init?(_ string: String) {
        let bytes = Array(string.utf8)
        var i = 0
        while i < bytes.count, bytes[i] != UInt8(ascii: ":") {
            let b = bytes[i]
            let isAlpha = (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A
            let isOther = (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E
            guard isAlpha || (i > 0 && isOther) else { return nil }
            i += 1
        }
        guard i > 0, i + 2 < bytes.count, bytes[i + 1] == 0x2F, bytes[i + 2] == 0x2F else { return nil }
        scheme = ASCII.lowered(bytes[0..<i])
        let authorityStart = i + 3
        var j = authorityStart
        while j < bytes.count, bytes[j] != 0x2F, bytes[j] != 0x3F, bytes[j] != 0x23 { j += 1 }
        var hostStart = authorityStart
        for k in authorityStart..<j where bytes[k] == UInt8(ascii: "@") { hostStart = k + 1 }
        var hostEnd = j
        if hostStart < j, bytes[hostStart] == UInt8(ascii: "[") {
            var k = hostStart
            while k < j, bytes[k] != UInt8(ascii: "]") { k += 1 }
            host = ASCII.lowered(bytes[(hostStart + 1)..<min(k, j)])
        } else {
            for k in hostStart..<j where bytes[k] == UInt8(ascii: ":") {
                hostEnd = k
                break
            }
            host = ASCII.lowered(bytes[hostStart..<hostEnd])
        }
        let pathStart = j
        var k = pathStart
        while k < bytes.count, bytes[k] != 0x3F, bytes[k] != 0x23 { k += 1 }
        path = Array(bytes[pathStart..<k])
        query = nil
        fragment = nil
        if k < bytes.count, bytes[k] == 0x3F {
            var m = k + 1
            while m < bytes.count, bytes[m] != 0x23 { m += 1 }
            query = Array(bytes[(k + 1)..<m])
            k = m
        }
        if k < bytes.count, bytes[k] == 0x23 {
            fragment = Array(bytes[(k + 1)...])
        }
    }

    /// iOS's path normalisation: an empty path is `/`, leading slashes collapse to one, trailing slashes are
    /// dropped (a lone `/` stays).
    static func normalisedPath<C: Collection<UInt8>>(_ path: C) -> [UInt8] where C.Index == Int {
        var start = path.startIndex
        var end = path.endIndex
        while end > start, path[end - 1] == 0x2F { end -= 1 }
        if end == start { return [0x2F] }
        if path[start] == 0x2F {
            while start + 1 < end, path[start + 1] == 0x2F { start += 1 }
        }
        return Array(path[start..<end])
    }
}

/// Per-URL state while matching: the URL's parts in each variant a rule may ask for (raw or decoded, exact or
/// folded), computed on first use and then shared by every rule.
struct MatchContext {
    struct QueryItem {
        var name: [UInt8]
        var foldedName: [UInt8]
        var value: [UInt8]
        var foldedValue: [UInt8]
    }

    let parts: URLParts
    private var paths: [[UInt8]?] = [nil, nil, nil, nil]
    private var queries: [[UInt8]?] = [nil, nil, nil, nil]
    private var fragments: [[UInt8]?] = [nil, nil, nil, nil]
    private var items: [[QueryItem]?] = [nil, nil]
    /// Per (decoded, folded names): the indexes in ``queryItems(decoded:)`` of the items of each name, in order.
    private var itemsByName: [[[UInt8]: [Int]]?] = [nil, nil, nil, nil]

    init(parts: URLParts) {
        self.parts = parts
    }

    @inline(__always)
    private static func slot(decoded: Bool, folded: Bool) -> Int {
        (decoded ? 2 : 0) + (folded ? 1 : 0)
    }

    private static func variant(_ raw: [UInt8], decoded: Bool, folded: Bool) -> [UInt8] {
        var bytes = decoded ? ASCII.percentDecoded(raw) : raw
        if folded { bytes = ASCII.lowered(bytes) }
        return bytes
    }

    /// The normalised path; decoding happens before normalisation, so `%2F` counts as a slash when decoded.
    mutating func path(decoded: Bool, folded: Bool) -> [UInt8] {
        let s = MatchContext.slot(decoded: decoded, folded: folded)
        if let cached = paths[s] { return cached }
        let value = URLParts.normalisedPath(MatchContext.variant(parts.path, decoded: decoded, folded: folded))
        paths[s] = value
        return value
    }

    /// The whole query (`""` when absent).
    mutating func query(decoded: Bool, folded: Bool) -> [UInt8] {
        let s = MatchContext.slot(decoded: decoded, folded: folded)
        if let cached = queries[s] { return cached }
        let value = MatchContext.variant(parts.query ?? [], decoded: decoded, folded: folded)
        queries[s] = value
        return value
    }

    /// The fragment (`""` when absent).
    mutating func fragment(decoded: Bool, folded: Bool) -> [UInt8] {
        let s = MatchContext.slot(decoded: decoded, folded: folded)
        if let cached = fragments[s] { return cached }
        let value = MatchContext.variant(parts.fragment ?? [], decoded: decoded, folded: folded)
        fragments[s] = value
        return value
    }

    /// The query items: split on `&` (empty pieces skipped), name and value split at the first `=`, an item
    /// without `=` has the value `""`. `+` is not a space.
    mutating func queryItems(decoded: Bool) -> [QueryItem] {
        let s = decoded ? 1 : 0
        if let cached = items[s] { return cached }
        var result: [QueryItem] = []
        let raw = parts.query ?? []
        var start = 0
        while start <= raw.count {
            var end = start
            while end < raw.count, raw[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                var eq = start
                while eq < end, raw[eq] != UInt8(ascii: "=") { eq += 1 }
                let name = Array(raw[start..<eq])
                let value = eq < end ? Array(raw[(eq + 1)..<end]) : []
                let n = decoded ? ASCII.percentDecoded(name) : name
                let v = decoded ? ASCII.percentDecoded(value) : value
                result.append(QueryItem(name: n, foldedName: ASCII.lowered(n), value: v, foldedValue: ASCII.lowered(v)))
            }
            start = end + 1
        }
        items[s] = result
        return result
    }

    /// The indexes in ``queryItems(decoded:)`` of the items named `name` (compared folded when `foldedName`), in
    /// order; empty when there is none.
    mutating func queryItemIndexes(named name: [UInt8], decoded: Bool, foldedName: Bool) -> [Int] {
        let s = MatchContext.slot(decoded: decoded, folded: foldedName)
        if itemsByName[s] == nil {
            var index: [[UInt8]: [Int]] = [:]
            for (i, item) in queryItems(decoded: decoded).enumerated() {
                index[foldedName ? item.foldedName : item.name, default: []].append(i)
            }
            itemsByName[s] = index
        }
        return itemsByName[s]?[name] ?? []
    }
}
