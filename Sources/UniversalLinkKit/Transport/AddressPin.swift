internal import _CLibcurl

/// How ``CurlTransport`` makes libcurl connect to the checked addresses and nowhere else, as libcurl options.
///
/// `CURLOPT_CONNECT_TO` sends every connection of the transfer to a made-up name, and `CURLOPT_RESOLVE` gives
/// that name the checked addresses (all of them: libcurl tries them in order, so a name whose IPv6 address is
/// unreachable still connects over IPv4). The made-up name, not the URL's host, carries the addresses because
/// `CURLOPT_RESOLVE` entries land in the multi handle's DNS cache, shared by every transfer: two lookups of one
/// host that returned different addresses must not overwrite each other's entry. The name is derived from the
/// address set, so transfers to the same addresses share it, and with it pooled connections.
///
/// Invariant: whatever libcurl does, the pre-request callback lets the request go only when the connection's
/// address is one of ``allowed``.
struct AddressPin: Sendable {
    /// The addresses and port the pin was made for.
    let addresses: [CheckedAddress]
    let port: Int
    /// The made-up name libcurl connects to, which its error messages then name.
    let name: String
    /// `CURLOPT_CONNECT_TO` entry: any host, any port, to the pin's name on the same port.
    let connectTo: String
    /// `CURLOPT_RESOLVE` entry: the pin's name and port to the addresses (IPv6 in brackets).
    let resolve: String
    /// The addresses the connection may go to, comma separated, as libcurl reports the address it connected to.
    let allowed: String

    /// - Parameters:
    ///   - addresses: The checked addresses, not empty.
    ///   - port: The port the URL connects to.
    init(_ addresses: [CheckedAddress], port: Int) {
        self.addresses = addresses
        self.port = port
        name = "ulk-\(String(Self.fingerprint(addresses.map(\.text).sorted()), radix: 16)).pin.invalid"
        connectTo = "::\(name):"
        resolve = (Self.expires ? "+" : "") + "\(name):\(port):"
            + addresses.map { $0.isIPv6 ? "[\($0.text)]" : $0.text }.joined(separator: ",")
        allowed = addresses.map(\.text).joined(separator: ",")
    }

    /// Whether the `CURLOPT_RESOLVE` entry expires (libcurl 7.75+). A plain entry stays in the multi handle's DNS
    /// cache for good: a host whose address set keeps changing (a CDN rotating addresses) left one entry per set it
    /// ever had, and libcurl goes through the whole cache at the end of every transfer (`link-benchmarks --profile
    /// pins-window`: about three times slower with 8 000 entries). An expiring entry leaves 60 s after the last
    /// transfer that set it (libcurl's DNS cache timeout); each transfer sets its own when it starts.
    private static let expires = ulk_curl_load() == 0 && ulk_curl_expiring_resolves() != 0

    /// FNV-1a over the texts, stable across processes (unlike `Hasher`); a collision would only make the
    /// pre-request check refuse the connection.
    private static func fingerprint(_ texts: [String]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in texts.joined(separator: ",").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
