import Foundation

/// Which links of an email are one click to the Response Handler: the same identity `LinkManager` coalesces
/// activations by, so the doctor counts each click once where a device would.
///
/// Scheme and host compare case-insensitively, the host without one trailing dot; the port, path and query are
/// kept as written; the fragment never reaches the server and is ignored.
///
/// A copy of `LinkManager.coalescingKey` (internal to UniversalLinkKit, so not reachable from here). Replace it
/// with the library's own click identity once that is a type of its own that this module can call.
enum CampaignClickKey {
    /// The click identity of `url`.
    static func of(_ url: URL) -> String {
        var host = (url.host(percentEncoded: true) ?? "").lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        var key = (url.scheme ?? "").lowercased() + "://" + host
        if let port = url.port { key += ":\(port)" }
        key += url.path(percentEncoded: true)
        if let query = url.query(percentEncoded: true) { key += "?" + query }
        return key
    }
}
