import Foundation

/// Which tracking URLs the resolver may request, so a backend cannot be turned into a proxy for arbitrary URLs.
///
/// By default: `https` only; hosts must be DNS names of at least two labels (no IP address in any notation,
/// `127.1` and `0x7f.0.0.1` included; no single-label name such as `intranet`; labels of at most 63 bytes,
/// names of at most 253; internationalised names are compared in their punycode form); `localhost` and
/// `*.localhost` are refused; no user name or password in the URL (the transport would send them as
/// credentials, and no refusal message repeats them); no port other than the scheme's default (443, or 80 for
/// allowed `http`). With ``brandedDomains`` set, the host must also be one of them. The same check applies to
/// every redirect the server answers with. ``allowsLocalHosts`` lifts the address, single-label and port rules,
/// for local test servers.
///
/// ```swift
/// var policy = ResolutionPolicy()
/// policy.brandedDomains = ["news.example.com", "*.example.net"]
/// policy.check(URL(string: "https://evil.example.org/pub/acc")!) // LinkError(hostNotAllowed)
/// ```
///
/// This check is on the URL's text. The addresses a name resolves to are checked by the transport, which
/// refuses loopback, private, link-local (cloud metadata included) and other non-public addresses unless
/// ``allowsLocalHosts`` is on (``TransportRequest/allowsLocalAddresses``): the resolver reports such a refusal
/// as `hostNotAllowed` too.
public struct ResolutionPolicy: Sendable, Hashable {
    /// Whether plain `http` tracking URLs may be requested. Default `false`; for local test servers.
    public var allowsHTTP: Bool

    /// Whether IP-address hosts, single-label names, `localhost` / `*.localhost` and names that resolve to
    /// non-public addresses may be requested. Default `false`; for local test servers. The branded-domain
    /// allowlist still applies when this is on.
    public var allowsLocalHosts: Bool

    /// Allowed hosts: exact names (`news.example.com`) or wildcards (`*.example.com`, which matches any
    /// subdomain but not `example.com` itself). Compared case-insensitively. Empty (the default) allows any
    /// DNS name that passes the other rules.
    public var brandedDomains: [String] {
        didSet { normalisedBrandedDomains = Self.normalised(brandedDomains) }
    }

    /// ``brandedDomains`` lower-cased and in punycode, computed when they are set rather than for every link.
    private var normalisedBrandedDomains: [String]

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - allowsHTTP: Allow plain `http`.
    ///   - allowsLocalHosts: Allow IP addresses and `localhost`.
    ///   - brandedDomains: Allowed hosts; empty allows any DNS name.
    public init(allowsHTTP: Bool = false, allowsLocalHosts: Bool = false, brandedDomains: [String] = []) {
        self.allowsHTTP = allowsHTTP
        self.allowsLocalHosts = allowsLocalHosts
        self.brandedDomains = brandedDomains
        self.normalisedBrandedDomains = Self.normalised(brandedDomains)
    }

    private static func normalised(_ domains: [String]) -> [String] {
        domains.map { punycode($0.lowercased()) }
    }

    /// Checks a URL against the policy.
    ///
    /// - Parameter url: The tracking URL or a redirect target.
    /// - Returns: `nil` when the URL may be requested, otherwise a ``LinkError/Code/hostNotAllowed`` error
    ///   saying which rule refused it.
    public func check(_ url: URL) -> LinkError? {
        // An ordinary link's parts in one pass over its text; any other link is read through `URL`'s accessors.
        check(url, plain: PlainLinkText(url))
    }

    /// ``check(_:)`` with the link's parts read already, or `nil` to read them from `URL`'s accessors (the
    /// reference the one-pass reading is checked against).
    func check(_ url: URL, plain: PlainLinkText?) -> LinkError? {
        // Only a refusal shows the URL: building its string for every admitted link cost a URL serialisation.
        let shown = ShownURL(url)
        guard let scheme = plain?.scheme ?? url.scheme?.lowercased() else {
            return refuse(shown, "it has no scheme; only https URLs are resolved")
        }
        guard scheme == "https" || (scheme == "http" && allowsHTTP) else {
            let allowed = allowsHTTP ? "http and https" : "https (allow http for local test servers only)"
            return refuse(shown, "scheme \(scheme) is not allowed; only \(allowed) URLs are resolved")
        }
        var host: String
        if let plain {
            // No user, port, IP literal or escape: the host as the text has it is its DNS form, lower-cased.
            host = plain.host
        } else {
            guard url.user(percentEncoded: true) == nil, url.password(percentEncoded: true) == nil else {
                return refuse(shown, "it carries a user name or password, which would be sent as credentials")
            }
            if let port = url.port, port != (scheme == "https" ? 443 : 80), !allowsLocalHosts {
                return refuse(shown, "port \(port) is not the default port of \(scheme) (allow local hosts for test servers)")
            }
            // The punycode form: what DNS and the transport see for internationalised names.
            guard let encoded = Self.encodedHost(of: url).map(Self.lowercased), !encoded.isEmpty else {
                return refuse(shown, "it has no host")
            }
            if encoded.hasPrefix("[") || Self.containsColon(encoded) {
                guard allowsLocalHosts else {
                    return refuse(shown, "IP address hosts are not resolved (allow local hosts for test servers)")
                }
                return checkBranded(encoded, shown)
            }
            host = encoded
        }
        if host.utf8.last == UInt8(ascii: ".") { host.removeLast() }
        guard Self.isDNSName(host) else {
            return refuse(shown, "host \(host) is not a valid DNS name")
        }
        if !allowsLocalHosts, !host.utf8.contains(UInt8(ascii: ".")) {
            return refuse(shown, "single-label host \(host) is not a public DNS name (allow local hosts for test servers)")
        }
        // The host passed isDNSName: it is ASCII.
        let isLocalhost = Self.isLocalhostASCII(host)
        if isLocalhost || Self.isIPv4LiteralASCII(host) {
            guard allowsLocalHosts else {
                let what = isLocalhost ? "localhost" : "IP address"
                return refuse(shown, "\(what) hosts are not resolved (allow local hosts for test servers)")
            }
        }
        return checkBranded(host, shown)
    }

    private func checkBranded(_ host: String, _ shown: ShownURL) -> LinkError? {
        guard !brandedDomains.isEmpty else { return nil }
        for pattern in normalisedBrandedDomains {
            if pattern.hasPrefix("*.") {
                let suffix = pattern.dropFirst(1)  // ".example.com"
                if host.count > suffix.count, host.hasSuffix(suffix) { return nil }
            } else if host == pattern {
                return nil
            }
        }
        return refuse(shown, "host \(host) is not one of the branded domains (\(brandedDomains.joined(separator: ", ")))")
    }

    /// A branded-domain entry as DNS sees it (`münchen.de` -> `xn--mnchen-3ya.de`); a wildcard keeps its `*.`.
    static func punycode(_ pattern: String) -> String {
        let wildcard = pattern.hasPrefix("*.")
        let name = wildcard ? String(pattern.dropFirst(2)) : pattern
        guard !name.utf8.allSatisfy({ $0 < 0x80 }),
              let encoded = URLComponents(string: "https://\(name)/")?.encodedHost
        else { return pattern }
        return (wildcard ? "*." : "") + encoded.lowercased()
    }

    private func refuse(_ url: ShownURL, _ reason: String) -> LinkError {
        LinkError(code: .hostNotAllowed, message: "Refused to resolve \(url.url.redactedString): \(reason).")
    }

    /// The URL a refusal names; its string is built only when a refusal needs it.
    private struct ShownURL {
        let url: URL
        init(_ url: URL) { self.url = url }
    }

    /// Whether the host contains `:` (an IPv6 literal). Byte by byte for an ASCII host, where that is the same
    /// test as Foundation's `contains(":")` and costs no `NSString` search.
    static func containsColon(_ host: String) -> Bool {
        guard host.utf8.allSatisfy({ $0 < 0x80 }) else { return host.contains(":") }
        return host.utf8.contains(UInt8(ascii: ":"))
    }

    /// The host as DNS and the transport see it: internationalised names in punycode, IPv6 literals in brackets.
    static func encodedHost(of url: URL) -> String? {
        // An ASCII host without `%` or `:` is already in that form as the URL holds it, so only the others
        // (internationalised names, percent escapes, IP literals) pay for URLComponents, which parses the URL
        // again (a third of the check's cost for an ordinary host). `host` drops the brackets of an IP literal
        // (`[0]` is `0`) and URLComponents keeps them, so a URL with a `[` anywhere takes the long way too.
        if let host = url.host(percentEncoded: true), !host.isEmpty,
           host.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: ":") }),
           !hasBracket(url) {
            return host
        }
        return URLComponents(url: url, resolvingAgainstBaseURL: false)?.encodedHost ?? url.host(percentEncoded: true)
    }

    /// Whether the URL's text has a `[` (an IP literal host, or one anywhere else): the text as given, searched with
    /// `memchr`, since serialising the URL again for the search cost more than the rest of the check.
    private static func hasBracket(_ url: URL) -> Bool {
        let text = url.baseURL == nil ? url.relativeString : url.absoluteString
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { memchr($0, Int32(UInt8(ascii: "[")), bytes.count) != nil } ?? false
        } ?? text.utf8.contains(UInt8(ascii: "["))
    }

    /// The host lower-cased, copied only when it has an upper-case ASCII letter or is not ASCII.
    private static func lowercased(_ host: String) -> String {
        host.utf8.contains { $0 >= 0x80 || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } ? host.lowercased() : host
    }

    /// Letters, digits, `-` and `_` in dot-separated non-empty labels of at most 63 bytes, 253 bytes in all.
    static func isDNSName(_ host: String) -> Bool {
        guard host.utf8.count <= 253 else { return false }
        // On the string's contiguous bytes when it has them (a native string always does): iterating `utf8` cost
        // about 40 instructions a byte.
        return host.utf8.withContiguousStorageIfAvailable { isDNSName(bytes: $0) } ?? isDNSName(bytes: host.utf8)
    }

    /// ``isDNSName(_:)`` on the host's bytes.
    private static func isDNSName(bytes: some Sequence<UInt8>) -> Bool {
        var labelLength = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "."):
                if labelLength == 0 { return false }
                labelLength = 0
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                labelLength += 1
                if labelLength > 63 { return false }
            default:
                return false
            }
        }
        return labelLength > 0
    }

    /// The WHATWG rule: a host whose last label is a number (decimal, `0x` hex or octal) is an IPv4 address,
    /// so `127.1`, `2130706433`, `0x7f.0.0.1` and `0177.0.0.1` all are.
    static func isIPv4Literal(_ host: String) -> Bool {
        // The checked host is always ASCII (it passed isDNSName); iterating its bytes instead of its Characters
        // gives the same answer for ASCII at a fraction of the cost. Any other string takes the Character path.
        guard host.utf8.allSatisfy({ $0 < 0x80 }) else { return isIPv4LiteralByCharacters(host) }
        return isIPv4LiteralASCII(host)
    }

    /// ``isIPv4Literal(_:)`` for a host known to be ASCII.
    static func isIPv4LiteralASCII(_ host: String) -> Bool {
        // On the string's contiguous bytes when it has them, as `isDNSName`: through `utf8`'s indices it cost about
        // 600 instructions for an ordinary host.
        host.utf8.withContiguousStorageIfAvailable { isIPv4LiteralASCII(bytes: $0[...]) }
            ?? isIPv4LiteralASCII(bytes: host.utf8[...])
    }

    /// `localhost` or a name under it (`a.localhost`), for an ASCII host that passed `isDNSName` (lower-case).
    static func isLocalhostASCII(_ host: String) -> Bool {
        host.utf8.withContiguousStorageIfAvailable { bytes in
            let name = "localhost".utf8
            let start = bytes.count - name.count
            guard start >= 0, start == 0 || bytes[start - 1] == UInt8(ascii: ".") else { return false }
            return bytes[start...].elementsEqual(name)
        } ?? (host == "localhost" || host.hasSuffix(".localhost"))
    }

    /// ``isIPv4LiteralASCII(_:)`` on the host's bytes.
    private static func isIPv4LiteralASCII<Bytes: BidirectionalCollection<UInt8>>(bytes: Bytes) -> Bool
    where Bytes.SubSequence == Bytes {
        let last = bytes.lastIndex(of: UInt8(ascii: ".")).map { bytes[bytes.index(after: $0)...] } ?? bytes[...]
        guard !last.isEmpty else { return false }
        if last.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 }) { return true }
        guard last.count >= 2, last.first == UInt8(ascii: "0"),
              last.dropFirst().first.map({ $0 | 0x20 }) == UInt8(ascii: "x")
        else { return false }
        return last.dropFirst(2).allSatisfy { byte in
            UInt8(ascii: "0")...UInt8(ascii: "9") ~= byte || UInt8(ascii: "a")...UInt8(ascii: "f") ~= (byte | 0x20)
        }
    }

    /// ``isIPv4Literal(_:)`` for any string, by Characters (non-ASCII digits are not IPv4 digits).
    static func isIPv4LiteralByCharacters(_ host: String) -> Bool {
        guard let last = host.split(separator: ".", omittingEmptySubsequences: false).last, !last.isEmpty else {
            return false
        }
        if last.allSatisfy(\.isASCIIDigit) { return true }
        let lowered = last.lowercased()
        if lowered.hasPrefix("0x") {
            return lowered.dropFirst(2).allSatisfy(\.isHexDigit)
        }
        return false
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
