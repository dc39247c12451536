import Foundation

/// The identity of one click: what makes two activations the same click, to be counted once.
///
/// Scheme and host are case-folded (a trailing dot on the host dropped); port, path and query are kept exactly as
/// received, because the query identifies the recipient and the link; the fragment never reaches the server, so
/// it does not make another click. ``LinkManager`` coalesces activations with the same identity, and a
/// ``ClaimStore`` keys its claims by it.
///
/// ```swift
/// let a = ClickIdentity(URL(string: "HTTPS://News.Example.com./pub/acc?_ri_=X#top")!)
/// let b = ClickIdentity(URL(string: "https://news.example.com/pub/acc?_ri_=X")!)
/// a == b  // true
/// ```
///
/// The key contains the tracking link's query: keep it in memory, and store or log only a keyed hash of it.
public struct ClickIdentity: Sendable, Hashable {
    /// The normalised link text the identity compares: `scheme://host[:port]path[?query]`.
    public let key: String

    /// The identity of a link.
    ///
    /// - Parameter url: The tracking link, as received.
    public init(_ url: URL) {
        let scheme = (url.scheme ?? "").lowercased()
        var host = (url.host(percentEncoded: true) ?? "").lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        let path = url.path(percentEncoded: true)
        let query = url.query(percentEncoded: true)
        var key = ""
        key.reserveCapacity(scheme.utf8.count + host.utf8.count + path.utf8.count + (query?.utf8.count ?? 0) + 16)
        key += scheme
        key += "://"
        key += host
        if let port = url.port { key += ":\(port)" }
        key += path
        if let query {
            key += "?"
            key += query
        }
        self.key = key
    }
}
