import Foundation

/// The identity of one click: what makes two activations the same click, to be counted once.
///
/// Scheme and host are case-folded (a trailing dot on the host dropped); port, path and query are kept exactly as
/// received, because the query identifies the recipient and the link; the fragment never reaches the server, so
/// it does not make another click. ``LinkManager`` coalesces activations with the same identity, and the link
/// doctor de-duplicates the links it resolves by it.
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
    /// The key's hash, computed once: a click's identity is hashed on every claim, join, completion and expiry.
    private let keyHash: Int

    /// The identity of a link.
    ///
    /// - Parameter url: The tracking link, as received.
    public init(_ url: URL) {
        self.init(url, plain: PlainLinkText(url))
    }

    /// The identity of a link whose text was already read in one pass (`nil` when it is not plain): the manager
    /// reads it once for the policy and the identity.
    init(_ url: URL, plain: PlainLinkText?) {
        // An ordinary link is read in one pass: the same key as the accessors give (`PlainLinkTextTests`).
        let key = plain?.identityKey ?? Self.key(readingAccessorsOf: url)
        self.key = key
        self.keyHash = key.hashValue
    }

    /// The key from `URL`'s accessors: any link (the reference the one-pass reading is checked against).
    static func key(readingAccessorsOf url: URL) -> String {
        var host = (url.host(percentEncoded: true) ?? "").lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        var key = (url.scheme ?? "").lowercased()
        key += "://"
        key += host
        if let port = url.port {
            key += ":"
            key += String(port)
        }
        key += url.path(percentEncoded: true)
        if let query = url.query(percentEncoded: true) {
            key += "?"
            key += query
        }
        return key
    }

    /// Whether two activations are the same click: their keys are equal.
    public static func == (lhs: ClickIdentity, rhs: ClickIdentity) -> Bool {
        lhs.keyHash == rhs.keyHash && lhs.key == rhs.key
    }

    /// Feeds the key's hash, computed once when the identity was made.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keyHash)
    }
}
