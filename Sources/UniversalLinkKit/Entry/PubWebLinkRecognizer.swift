import Foundation

/// Decides whether a URL is a Responsys pub-web link, and which kind: the triage's first question.
///
/// Responsys rewrites every link of a campaign email into a click-tracking link on the branded domain:
/// `/pub/acc` for links that should open the app (declared in the domain's `apple-app-site-association`),
/// `/pub/cc` for links that always open the web. Accounts on global routing use other paths, so both lists come
/// from ``LinkManager/Configuration/Recognition``.
///
/// The path is compared as iOS's association-file matcher compares `"paths": ["/pub/acc"]`: percent-encoded,
/// case-sensitively, trailing slashes ignored, a leading `//` collapsed; query and fragment do not matter.
package struct PubWebLinkRecognizer: Sendable, Hashable {
    /// The kind of a URL.
    package enum Kind: Sendable, Hashable {
        /// A pub-web link that opens the app (`/pub/acc`).
        case appLink
        /// A pub-web link that opens the web (`/pub/cc`).
        case nonAppLink
        /// Anything else.
        case notPubWeb

        /// Whether the URL is a pub-web link of either kind.
        package var isPubWeb: Bool { self != .notPubWeb }
    }

    /// The recognised paths.
    package let configuration: LinkManager.Configuration.Recognition
    private let appPaths: Set<String>
    private let nonAppPaths: Set<String>

    package init(configuration: LinkManager.Configuration.Recognition = .init()) {
        self.configuration = configuration
        self.appPaths = Set(configuration.appLinkPaths.map(Self.normalise))
        self.nonAppPaths = Set(configuration.nonAppLinkPaths.map(Self.normalise))
    }

    /// The kind of a URL: ``Kind/appLink``, ``Kind/nonAppLink`` or ``Kind/notPubWeb``.
    package func kind(of url: URL) -> Kind {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
              let host = url.host(percentEncoded: true), !host.isEmpty
        else { return .notPubWeb }
        let path = Self.normalise(url.path(percentEncoded: true))
        if appPaths.contains(path) { return .appLink }
        if nonAppPaths.contains(path) { return .nonAppLink }
        return .notPubWeb
    }

    /// Trailing slashes dropped, leading slashes collapsed to one, an empty path as `/`.
    static func normalise(_ path: String) -> String {
        let utf8 = path.utf8
        let slash = UInt8(ascii: "/")
        guard let first = utf8.firstIndex(where: { $0 != slash }), let last = utf8.lastIndex(where: { $0 != slash })
        else { return "/" }
        // A path that is already in this form (the usual `/pub/acc`) is returned as it is.
        if first == utf8.index(after: utf8.startIndex), utf8.index(after: last) == utf8.endIndex { return path }
        return "/" + path[first...last]
    }
}
