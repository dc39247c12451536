import Foundation

/// The parts of an ordinary link (`scheme://host/path?query#fragment`, ASCII, no user, port or IP literal) read in
/// one pass over its text, for the checks every link goes through (``PubWebLinkRecognizer``, ``ClickIdentity``,
/// ``ResolutionPolicy``).
///
/// Each `URL` accessor (`scheme`, `host`, `path`, `query`) slices the URL's string again and allocates a new one:
/// the click identity and the policy read seven of them per link. This reads the text once. It answers only for
/// the plain shape tracking links have; anything else (a user or port in the authority, `%` or an `xn--` label in
/// the host, `[` anywhere, a non-ASCII byte, a relative URL, an empty host) gives `nil`, and the caller reads the `URL` as before, so the
/// results are the same by construction for every link (`PlainLinkTextTests` compares both ways).
struct PlainLinkText {
    /// The link's text, as `URL` holds it.
    private let text: String
    /// Where the scheme ends (at its `:`), the host starts and ends, and the fragment starts (or the end).
    private let schemeEnd: Int
    private let hostStart: Int
    private let hostEnd: Int
    /// Where the path ends: at the query's `?`, or at the fragment (or the end) when there is no query.
    private let pathEnd: Int
    private let end: Int

    /// The scheme, lower-cased.
    var scheme: String { lowercased(0..<schemeEnd) }
    /// The host, lower-cased, as the text has it (a trailing dot kept).
    var host: String { lowercased(hostStart..<hostEnd) }

    /// The path as written (percent-encoded, letter case kept; empty when the host is followed by `?`, `#` or
    /// nothing): what `url.path(percentEncoded: true)` gives.
    var path: String {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[hostEnd..<pathEnd]), as: UTF8.self)
        } ?? ""
    }
    /// ``ClickIdentity``'s key, `scheme://host` lower-cased (a trailing dot of the host dropped) and the path and
    /// query as written, built in one allocation.
    var identityKey: String {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            let hostEnd = bytes[self.hostEnd - 1] == UInt8(ascii: ".") ? self.hostEnd - 1 : self.hostEnd
            let length = schemeEnd + 3 + (hostEnd - hostStart) + (end - self.hostEnd)
            return String(unsafeUninitializedCapacity: length) { buffer in
                var n = 0
                for i in 0..<schemeEnd { buffer[n] = Self.lower(bytes[i]); n += 1 }
                for b in "://".utf8 { buffer[n] = b; n += 1 }
                for i in hostStart..<hostEnd { buffer[n] = Self.lower(bytes[i]); n += 1 }
                for i in self.hostEnd..<end { buffer[n] = bytes[i]; n += 1 }
                return n
            }
        } ?? ""
    }

    init?(_ url: URL) {
        guard url.baseURL == nil else { return nil }
        let text = url.relativeString
        guard let parsed = text.utf8.withContiguousStorageIfAvailable({ Self.parse($0, text) }) ?? nil else { return nil }
        self = parsed
    }

    private init(text: String, schemeEnd: Int, hostStart: Int, hostEnd: Int, pathEnd: Int, end: Int) {
        self.text = text
        self.schemeEnd = schemeEnd
        self.hostStart = hostStart
        self.hostEnd = hostEnd
        self.pathEnd = pathEnd
        self.end = end
    }

    @inline(__always)
    private static func lower(_ byte: UInt8) -> UInt8 { LinkTextScanner.lower(byte) }

    /// The bytes of `range`, ASCII lower-cased, as a string of their own.
    private func lowercased(_ range: Range<Int>) -> String {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            String(unsafeUninitializedCapacity: range.count) { buffer in
                for (n, i) in range.enumerated() { buffer[n] = Self.lower(bytes[i]) }
                return range.count
            }
        } ?? ""
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> PlainLinkText? {
        let count = bytes.count
        // scheme, then "://", then a plain host.
        guard let schemeEnd = LinkTextScanner.schemeEnd(bytes), count - schemeEnd >= 3,
              bytes[schemeEnd + 1] == UInt8(ascii: "/"), bytes[schemeEnd + 2] == UInt8(ascii: "/"),
              let hostEnd = LinkTextScanner.plainHostEnd(bytes, from: schemeEnd + 3)
        else { return nil }
        let hostStart = schemeEnd + 3
        var i = hostEnd
        var pathEnd: Int?
        // The rest up to the fragment: ASCII without "[" (URL's accessors treat a bracket anywhere specially).
        while i < count, bytes[i] != UInt8(ascii: "#") {
            guard bytes[i] < 0x80, bytes[i] != UInt8(ascii: "["), bytes[i] != UInt8(ascii: "]") else { return nil }
            if pathEnd == nil, bytes[i] == UInt8(ascii: "?") { pathEnd = i }
            i += 1
        }
        return PlainLinkText(
            text: text, schemeEnd: schemeEnd, hostStart: hostStart, hostEnd: hostEnd, pathEnd: pathEnd ?? i, end: i)
    }
}
