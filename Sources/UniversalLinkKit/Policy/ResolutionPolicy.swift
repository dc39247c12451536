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
/// var configuration = LinkManager.Configuration()
/// configuration.policy.brandedDomains = ["news.example.com", "*.example.net"]
/// ```
///
/// This check is on the URL's text. The addresses a name resolves to are checked by the transport, which
/// refuses loopback, private, link-local (cloud metadata included) and other non-public addresses unless
/// ``allowsLocalHosts`` is on (``TransportRequest/allowsLocalAddresses``): such a refusal is reported as
/// ``LinkError/Code/hostNotAllowed`` too.
public struct ResolutionPolicy: Sendable, Hashable {
    /// Whether plain `http` tracking URLs may be requested. Default `false`; for local test servers.
    public var allowsHTTP: Bool

    /// Whether IP-address hosts, single-label names, `localhost` / `*.localhost` and names that resolve to
    /// non-public addresses may be requested. Default `false`; for local test servers. The branded-domain
    /// allowlist still applies when this is on.
    public var allowsLocalHosts: Bool

    /// Allowed hosts: exact names (`news.example.com`) or wildcards (`*.example.com`, which matches any
    /// subdomain but not `example.com` itself). Compared case-insensitively, internationalised names in their
    /// punycode form. Empty (the default) allows any DNS name that passes the other rules.
    public var brandedDomains: [String]

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - allowsHTTP: Allow plain `http`.
    ///   - allowsLocalHosts: Allow IP addresses, single-label names and `localhost`.
    ///   - brandedDomains: Allowed hosts; empty allows any DNS name.
    public init(allowsHTTP: Bool = false, allowsLocalHosts: Bool = false, brandedDomains: [String] = []) {
        self.allowsHTTP = allowsHTTP
        self.allowsLocalHosts = allowsLocalHosts
        self.brandedDomains = brandedDomains
    }

    /// Checks a URL against the policy.
    ///
    /// - Parameter url: The tracking URL or a redirect target.
    /// - Returns: `nil` when the URL may be requested, otherwise a ``LinkError/Code/hostNotAllowed`` error
    ///   saying which rule refused it.
    package func check(_ url: URL) -> LinkError? {
        guard let scheme = url.scheme?.lowercased() else {
            return refuse(url, "it has no scheme; only https URLs are resolved")
        }
        guard scheme == "https" || (scheme == "http" && allowsHTTP) else {
            let allowed = allowsHTTP ? "http and https" : "https (allow http for local test servers only)"
            return refuse(url, "scheme \(scheme) is not allowed; only \(allowed) URLs are resolved")
        }
        guard url.user(percentEncoded: true) == nil, url.password(percentEncoded: true) == nil else {
            return refuse(url, "it carries a user name or password, which would be sent as credentials")
        }
        if let port = url.port, port != (scheme == "https" ? 443 : 80), !allowsLocalHosts {
            return refuse(url, "port \(port) is not the default port of \(scheme) (allow local hosts for test servers)")
        }
        // The punycode form: what DNS and the transport see for internationalised names.
        guard var host = Self.encodedHost(of: url)?.lowercased(), !host.isEmpty else {
            return refuse(url, "it has no host")
        }
        if host.hasPrefix("[") || host.utf8.contains(UInt8(ascii: ":")) {
            guard allowsLocalHosts else {
                return refuse(url, "IP address hosts are not resolved (allow local hosts for test servers)")
            }
            return checkBranded(host, url)
        }
        if host.hasSuffix(".") { host.removeLast() }
        guard Self.isDNSName(host) else {
            return refuse(url, "host \(host) is not a valid DNS name")
        }
        if !allowsLocalHosts, !host.utf8.contains(UInt8(ascii: ".")) {
            return refuse(url, "single-label host \(host) is not a public DNS name (allow local hosts for test servers)")
        }
        let isLocalhost = host == "localhost" || host.hasSuffix(".localhost")
        if isLocalhost || Self.isIPv4Literal(host) {
            guard allowsLocalHosts else {
                let what = isLocalhost ? "localhost" : "IP address"
                return refuse(url, "\(what) hosts are not resolved (allow local hosts for test servers)")
            }
        }
        return checkBranded(host, url)
    }

    private func checkBranded(_ host: String, _ url: URL) -> LinkError? {
        guard !brandedDomains.isEmpty else { return nil }
        for pattern in brandedDomains.map({ Self.punycode($0.lowercased()) }) {
            if pattern.hasPrefix("*.") {
                let suffix = pattern.dropFirst(1)  // ".example.com"
                if host.count > suffix.count, host.hasSuffix(String(suffix)) { return nil }
            } else if host == pattern {
                return nil
            }
        }
        return refuse(url, "host \(host) is not one of the branded domains (\(brandedDomains.joined(separator: ", ")))")
    }

    private func refuse(_ url: URL, _ reason: String) -> LinkError {
        LinkError(code: .hostNotAllowed, message: "Refused to resolve \(url.redactedString): \(reason).")
    }

    /// A branded-domain entry as DNS sees it (`münchen.de` -> `xn--mnchen-3ya.de`); a wildcard keeps its `*.`.
    static func punycode(_ pattern: String) -> String {
        let wildcard = pattern.hasPrefix("*.")
        let name = wildcard ? String(pattern.dropFirst(2)) : pattern
        guard !name.unicodeScalars.allSatisfy(\.isASCII),
              let encoded = URLComponents(string: "https://\(name)/")?.encodedHost
        else { return pattern }
        return (wildcard ? "*." : "") + encoded.lowercased()
    }

    /// The host as DNS and the transport see it: internationalised names in punycode, IPv6 literals in brackets.
    static func encodedHost(of url: URL) -> String? {
        guard let host = url.host(percentEncoded: true) else { return nil }
        // An ASCII name without escapes is already in that form; the URL's accessor gives the others percent-encoded
        // and IPv6 literals without brackets, so `URLComponents` reads them.
        let isPlain = host.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "%") && $0 != UInt8(ascii: ":") }
        return isPlain ? host : URLComponents(url: url, resolvingAgainstBaseURL: false)?.encodedHost ?? host
    }

    /// Lower-case letters, digits, `-` and `_` in dot-separated non-empty labels of at most 63 bytes, 253 bytes in
    /// all (the host is lower-cased before it is checked).
    static func isDNSName(_ host: String) -> Bool {
        guard host.utf8.count <= 253 else { return false }
        var labelLength = 0
        for byte in host.utf8 {
            switch byte {
            case UInt8(ascii: "."):
                guard labelLength > 0 else { return false }
                labelLength = 0
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
                UInt8(ascii: "_"):
                labelLength += 1
                guard labelLength <= 63 else { return false }
            default:
                return false
            }
        }
        return labelLength > 0
    }

    /// The WHATWG rule: a host whose last label is a number (decimal, `0x` hex or octal) is an IPv4 address,
    /// so `127.1`, `2130706433`, `0x7f.0.0.1` and `0177.0.0.1` all are. Decided on the host's bytes: only ASCII
    /// digits are IPv4 digits.
    static func isIPv4Literal(_ host: String) -> Bool {
        let utf8 = host.utf8
        let last = utf8[(utf8.lastIndex(of: UInt8(ascii: ".")).map(utf8.index(after:)) ?? utf8.startIndex)...]
        guard !last.isEmpty else { return false }
        let isDigit = { (byte: UInt8) in UInt8(ascii: "0")...UInt8(ascii: "9") ~= byte }
        if last.allSatisfy(isDigit) { return true }
        guard last.count >= 2, last.first == UInt8(ascii: "0"), last.dropFirst().first.map({ $0 | 0x20 }) == UInt8(ascii: "x")
        else { return false }
        return last.dropFirst(2).allSatisfy { isDigit($0) || UInt8(ascii: "a")...UInt8(ascii: "f") ~= ($0 | 0x20) }
    }
}
