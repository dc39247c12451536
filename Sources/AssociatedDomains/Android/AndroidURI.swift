/// A URL split as `android.net.Uri.parse` splits it, with the values Android's matchers see: the scheme as
/// written (intent filters compare it case-sensitively), the host, the port (`-1` when absent), and the path,
/// query and fragment *decoded* (`Uri.getPath()` decodes `%XX` as UTF-8, an invalid sequence becoming U+FFFD),
/// as UTF-16 code units.
struct AndroidURI: Sendable, Hashable {
    var scheme: String
    var host: String?
    var port: Int
    var path: [UInt16]
    var query: [UInt16]?
    var fragment: [UInt16]?
    /// The raw (encoded) query, split into parameters by dynamic rules.
    var rawQuery: String?
    /// The query's parameters as dynamic rules read them (the raw query split on `&`, empty pieces skipped, each at
    /// its first `=`, both sides decoded), the values of each name in order, as the rules' globs read them
    /// (``DynamicGlob/encoded(_:)``): split once per URL, looked up by every rule.
    var dynamicRuleParameters: [[UInt16]: [[UInt8]]] = [:]
    /// The query's parameters as `UriRelativeFilter` splits them: on `&`, or on `;` when there is no `&`; decoded.
    var queryParameters: [[UInt16]] = []

    init?(_ string: String) {
        guard let colon = string.firstIndex(of: ":") else { return nil }
        let scheme = string[..<colon]
        guard !scheme.isEmpty, !scheme.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return nil }
        self.scheme = String(scheme)
        var rest = string[string.index(after: colon)...]
        if let hash = rest.firstIndex(of: "#") {
            fragment = AndroidURI.decode(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            let raw = rest[rest.index(after: question)...]
            rawQuery = String(raw)
            let decoded = AndroidURI.decode(raw)
            query = decoded
            for item in raw.split(separator: "&", omittingEmptySubsequences: true) {
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let value = parts.count > 1 ? DynamicGlob.encoded(AndroidURI.decode(parts[1])) : []
                dynamicRuleParameters[AndroidURI.decode(parts[0]), default: []].append(value)
            }
            let amp = UInt16(UInt8(ascii: "&")), semicolon = UInt16(UInt8(ascii: ";"))
            var pieces = decoded.split(separator: amp, omittingEmptySubsequences: false)
            if pieces.count == 1 { pieces = decoded.split(separator: semicolon, omittingEmptySubsequences: false) }
            queryParameters = pieces.map(Array.init)
            rest = rest[..<question]
        }
        port = -1
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
            var authority = rest[..<authorityEnd]
            rest = rest[authorityEnd...]
            if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
            if let portColon = authority.lastIndex(of: ":"), !authority.hasPrefix("[") || authority[..<portColon].hasSuffix("]") {
                port = Int(authority[authority.index(after: portColon)...]) ?? -1
                authority = authority[..<portColon]
            }
            host = String(decoding: AndroidURI.decode(authority), as: UTF16.self)
        }
        path = AndroidURI.decode(rest)
    }

    /// Percent-decoding as `Uri.decode` does: `%XX` runs as UTF-8, malformed ones as U+FFFD, `+` kept.
    static func decode(_ text: Substring) -> [UInt16] {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
               let high = ASCII.hexValue(bytes[i + 1]), let low = ASCII.hexValue(bytes[i + 2]) {
                decoded.append(high << 4 | low)
                i += 3
            } else {
                decoded.append(bytes[i])
                i += 1
            }
        }
        return Array(String(decoding: decoded, as: UTF8.self).utf16)
    }

}
