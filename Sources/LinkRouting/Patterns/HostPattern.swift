import Foundation

/// The scheme and host a host-aware route requires: `https://www.example.com` or `https://*.example.com`.
///
/// Scheme and host compare case-insensitively; a port in the pattern or the URL is ignored. `*.example.com`
/// matches any subdomain (`www.example.com`, `a.b.example.com`) but not `example.com` itself: register both
/// when both should route.
struct HostPattern: Sendable, Hashable {
    /// The lower-cased scheme.
    let scheme: String
    /// The lower-cased host, or the suffix after `*` (starting with `.`) when ``isWildcard``.
    let host: String
    /// Whether the host was written `*.suffix`.
    let isWildcard: Bool

    /// The key under which routes for this host are indexed.
    var indexKey: [UInt8] {
        Array((isWildcard ? "\(scheme)://*\(host)" : "\(scheme)://\(host)").utf8)
    }

    /// The index keys a URL with this scheme and host can match: the exact host, then every `*.suffix`.
    static func indexKeys(scheme: String, host: String) -> [[UInt8]] {
        let scheme = scheme.lowercased()
        let host = host.lowercased()
        var keys = [Array("\(scheme)://\(host)".utf8)]
        var index = host.startIndex
        while let dot = host[index...].firstIndex(of: ".") {
            if dot != host.startIndex {
                keys.append(Array("\(scheme)://*\(host[dot...])".utf8))
            }
            index = host.index(after: dot)
        }
        return keys
    }

    /// Splits `scheme://host[:port]/path` into a host pattern and the path, or `nil` when `pattern` is not of that
    /// shape (then it is an ordinary JLRoutes pattern).
    static func split(_ pattern: String) -> (host: HostPattern, path: String)? {
        // A JLRoutes pattern normally starts with `/` and has no `://`: no host to split off.
        guard pattern.utf8.first != UInt8(ascii: "/"), PercentDecoding.contains(UInt8(ascii: ":"), in: pattern) else { return nil }
        guard let separator = pattern.range(of: "://") else { return nil }
        let scheme = pattern[pattern.startIndex..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        let afterScheme = pattern[separator.upperBound...]
        let pathStart = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        let authority = Array(afterScheme[afterScheme.startIndex..<pathStart].utf8)
        let hostBytes = RouteRequest.hostPart(of: authority[...])
        var host = String(decoding: hostBytes, as: UTF8.self).lowercased()
        guard !host.isEmpty else { return nil }
        var isWildcard = false
        if host.hasPrefix("*.") {
            isWildcard = true
            host.removeFirst()
        }
        let path = String(afterScheme[pathStart...])
        return (HostPattern(scheme: scheme.lowercased(), host: host, isWildcard: isWildcard), path.isEmpty ? "/" : path)
    }
}
