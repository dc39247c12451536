import Foundation

/// Decides whether a URL is a Responsys pub-web link, and which kind.
///
/// Responsys rewrites every link of a campaign email into a click-tracking link on the branded domain:
/// `/pub/acc` for links that should open the app (declared in the domain's `apple-app-site-association`),
/// `/pub/cc` for links that always open the web. Accounts on global routing may use other paths, so both
/// lists are configurable.
///
/// The path is compared as iOS's association-file matcher compares `"paths": ["/pub/acc"]`: percent-encoded,
/// case-sensitively, trailing slashes ignored, a leading `//` collapsed; query and fragment do not matter.
///
/// ```swift
/// let recognizer = PubWebLinkRecognizer()
/// recognizer.kind(of: URL(string: "https://news.example.com/pub/acc?_ri_=X")!) // .appLink
/// recognizer.explain(URL(string: "https://news.example.com/PUB/ACC")!).reason
/// // "path /PUB/ACC is not a pub-web path (app links: /pub/acc; non-app links: /pub/cc; compared case-sensitively)"
/// ```
public struct PubWebLinkRecognizer: Sendable, Hashable {
    /// Which paths count as pub-web links.
    public struct Configuration: Sendable, Hashable {
        /// Paths of app links, which open the app and are resolved by the SDK. Default `["/pub/acc"]`.
        public var appLinkPaths: [String]
        /// Paths of non-app links, which open the web; in-app hyperlinks and push URLs on them are still
        /// resolved when `executeRsysWebURL` is on. Default `["/pub/cc"]`.
        public var nonAppLinkPaths: [String]

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - appLinkPaths: Paths of app links.
        ///   - nonAppLinkPaths: Paths of non-app links.
        public init(appLinkPaths: [String] = ["/pub/acc"], nonAppLinkPaths: [String] = ["/pub/cc"]) {
            self.appLinkPaths = appLinkPaths
            self.nonAppLinkPaths = nonAppLinkPaths
        }
    }

    /// The kind of a URL.
    public enum Kind: Sendable, Hashable {
        /// A pub-web link that opens the app (`/pub/acc`).
        case appLink
        /// A pub-web link that opens the web (`/pub/cc`).
        case nonAppLink
        /// Anything else.
        case notPubWeb

        /// Whether the URL is a pub-web link of either kind.
        public var isPubWeb: Bool { self != .notPubWeb }
    }

    /// A decision with the reason for it.
    public struct Explanation: Sendable, Hashable, CustomStringConvertible {
        /// The decision.
        public var kind: Kind
        /// Why, in one sentence.
        public var reason: String

        /// `"<kind>: <reason>"`.
        public var description: String { "\(kind): \(reason)" }
    }

    /// The recognised paths.
    public let configuration: Configuration
    private let appPaths: Set<String>
    private let nonAppPaths: Set<String>

    /// Creates a recognizer.
    ///
    /// - Parameter configuration: The recognised paths.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        self.appPaths = Set(configuration.appLinkPaths.map(Self.normalise))
        self.nonAppPaths = Set(configuration.nonAppLinkPaths.map(Self.normalise))
    }

    /// The kind of a URL.
    ///
    /// - Parameter url: Any URL.
    /// - Returns: ``Kind/appLink``, ``Kind/nonAppLink`` or ``Kind/notPubWeb``.
    public func kind(of url: URL) -> Kind {
        kind(of: url, plain: PlainLinkText(url))
    }

    /// The kind of a URL whose text was read already: `plain` is `PlainLinkText(url)`, which the manager reads once
    /// for the recognizer, the policy and the click identity. The same answer as reading `url`'s accessors
    /// (`PlainLinkTextTests` compares both ways).
    func kind(of url: URL, plain: PlainLinkText?) -> Kind {
        // The decision alone, on every link: the reason's text is built only when ``explain(_:)`` is asked for it.
        if let plain {
            // An ordinary link has a host by construction.
            guard Self.isHTTP(plain.scheme) else { return .notPubWeb }
            return kind(ofPath: Self.normalise(plain.path))
        }
        return kind(readingAccessorsOf: url)
    }

    /// ``kind(of:)`` from `url`'s own accessors: for the links `PlainLinkText` does not read, and as the reference
    /// the tests compare it with.
    func kind(readingAccessorsOf url: URL) -> Kind {
        guard let scheme = url.scheme, Self.isHTTP(scheme),
              let host = url.host(percentEncoded: true), !host.isEmpty
        else { return .notPubWeb }
        return kind(ofPath: Self.normalise(url.path(percentEncoded: true)))
    }

    private func kind(ofPath path: String) -> Kind {
        if appPaths.contains(path) { return .appLink }
        if nonAppPaths.contains(path) { return .nonAppLink }
        return .notPubWeb
    }

    /// `http` or `https`, in any letter case, without building a lower-cased copy.
    private static func isHTTP(_ scheme: String) -> Bool {
        var bytes = scheme.utf8.makeIterator()
        for expected in "http".utf8 {
            guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
        }
        guard let last = bytes.next() else { return true }
        return last | 0x20 == UInt8(ascii: "s") && bytes.next() == nil
    }

    /// The kind of a URL and the reason for it, for logs and support.
    ///
    /// - Parameter url: Any URL.
    /// - Returns: The decision and a one-sentence reason.
    public func explain(_ url: URL) -> Explanation {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            let found = url.scheme.map { "scheme \($0)" } ?? "no scheme"
            return Explanation(kind: .notPubWeb, reason: "\(found): pub-web links are http(s) URLs")
        }
        guard let host = url.host(percentEncoded: true), !host.isEmpty else {
            return Explanation(kind: .notPubWeb, reason: "no host: pub-web links are on a branded domain")
        }
        let path = Self.normalise(url.path(percentEncoded: true))
        if appPaths.contains(path) {
            return Explanation(kind: .appLink, reason: "path \(path) on \(host) is an app link path")
        }
        if nonAppPaths.contains(path) {
            return Explanation(kind: .nonAppLink, reason: "path \(path) on \(host) is a non-app link path")
        }
        let apps = configuration.appLinkPaths.joined(separator: ", ")
        let nonApps = configuration.nonAppLinkPaths.joined(separator: ", ")
        return Explanation(
            kind: .notPubWeb,
            reason: "path \(path) is not a pub-web path (app links: \(apps); non-app links: \(nonApps);"
                + " compared case-sensitively)"
        )
    }

    /// Trailing slashes dropped, leading slashes collapsed to one, empty path as `/`.
    static func normalise(_ path: String) -> String {
        let bytes = path.utf8
        guard let first = bytes.first else { return "/" }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == UInt8(ascii: "/") { start = bytes.index(after: start) }
        while start < end, bytes[bytes.index(before: end)] == UInt8(ascii: "/") { end = bytes.index(before: end) }
        // The usual path has one leading slash and no trailing one: it is its own normal form.
        if first == UInt8(ascii: "/"), start == bytes.index(after: bytes.startIndex), end == bytes.endIndex { return path }
        return "/" + path[start..<end]
    }
}
