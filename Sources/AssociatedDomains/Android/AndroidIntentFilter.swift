/// One `<intent-filter>` of an `AndroidManifest.xml`, with its `<data>` elements combined as Android combines them:
/// every `scheme` of every `<data>` goes into one list, each `host` (with the `port` of the same element) into
/// another, every path attribute into a third, so `<data scheme="https" host="a"/><data scheme="http" host="b"/>`
/// also takes `http://a`.
///
/// Matching follows `IntentFilter.matchData`: the scheme must be listed (case-sensitive); when hosts are listed one
/// must match (lower-cased, then compared by UTF-16 code units; a host starting with `*` matches any host ending
/// with the rest, so `*.example.com` takes `a.example.com` but not `example.com`); a listed port must equal the URL's
/// explicit port; when paths or Android 15 groups are listed, the decoded path must match one path matcher *or* the
/// groups must allow the URL. Paths are ignored when no host is listed.
package struct AndroidIntentFilter: Sendable, Hashable {
    /// One `android:host` (with the `android:port` of the same `<data>` element).
    package struct Authority: Sendable, Hashable {
        /// The host as written, `*.example.com` included.
        package var host: String
        /// The port, or `nil` for any.
        package var port: Int?

        /// Creates an authority.
        /// - Parameters:
        ///   - host: The host as written.
        ///   - port: The port, or `nil` for any.
        package init(host: String, port: Int? = nil) {
            self.host = host
            self.port = port
        }

        /// Whether the host starts with `*` (Android then matches by suffix).
        package var isWildcard: Bool { host.hasPrefix("*") }

        /// Lower-cased, then compared by UTF-16 code units as Java compares strings (no Unicode normalisation), as
        /// ``AndroidFilterIndex`` looks hosts up.
        func matches(host uriHost: String?, port uriPort: Int) -> Bool {
            guard let uriHost else { return false }
            let wanted = AndroidFilterIndex.hostKey(isWildcard ? String(host.dropFirst()) : host)
            let actual = AndroidFilterIndex.hostKey(uriHost)
            if isWildcard {
                guard actual.count >= wanted.count, actual[(actual.count - wanted.count)...].elementsEqual(wanted) else {
                    return false
                }
            } else if actual != wanted {
                return false
            }
            if let port, port != uriPort { return false }
            return true
        }
    }

    /// The `android:name` of the activity (or activity-alias) declaring the filter.
    package var component: String
    /// The line of `<intent-filter>` in the manifest, or 0 when built in code.
    package var line: Int
    /// `android:autoVerify="true"`.
    package var autoVerify: Bool
    /// The `<action android:name>` values.
    package var actions: [String]
    /// The `<category android:name>` values.
    package var categories: [String]
    /// Every `android:scheme`.
    package var schemes: [String]
    /// Every `android:host` with its port.
    package var authorities: [Authority]
    /// Every `android:path`, `pathPrefix`, `pathPattern`, `pathAdvancedPattern`, `pathSuffix`.
    package var paths: [AndroidPattern]
    /// Android 15 `<uri-relative-filter-group>`s, in order.
    package var groups: [AndroidURIRelativeFilterGroup]

    /// Creates a filter.
    /// - Parameters:
    ///   - component: The activity's name.
    ///   - line: Where it was read, if anywhere.
    ///   - autoVerify: `android:autoVerify`.
    ///   - actions: Actions.
    ///   - categories: Categories.
    ///   - schemes: Schemes.
    ///   - authorities: Hosts and ports.
    ///   - paths: Path matchers.
    ///   - groups: Android 15 groups.
    package init(
        component: String = "", line: Int = 0, autoVerify: Bool = false, actions: [String] = [], categories: [String] = [],
        schemes: [String] = [], authorities: [Authority] = [], paths: [AndroidPattern] = [],
        groups: [AndroidURIRelativeFilterGroup] = []
    ) {
        self.component = component
        self.line = line
        self.autoVerify = autoVerify
        self.actions = actions
        self.categories = categories
        self.schemes = schemes
        self.authorities = authorities
        self.paths = paths
        self.groups = groups
    }

    static let view = "android.intent.action.VIEW"
    static let browsable = "android.intent.category.BROWSABLE"
    static let defaultCategory = "android.intent.category.DEFAULT"

    /// Whether a link tapped in an email can reach the filter: `VIEW`, `BROWSABLE` and `DEFAULT` are all declared.
    package var takesTappedLinks: Bool {
        actions.contains(Self.view) && categories.contains(Self.browsable) && categories.contains(Self.defaultCategory)
    }

    /// Whether Android verifies this filter's hosts: `autoVerify`, tapped links, and only `http`/`https` schemes.
    package var isAppLinkFilter: Bool {
        autoVerify && takesTappedLinks && !schemes.isEmpty && schemes.allSatisfy { $0 == "http" || $0 == "https" }
    }

    /// A short name for explanations: `.MainActivity (line 14)`.
    package var label: String {
        let name = component.isEmpty ? "intent-filter" : component
        return line > 0 ? "\(name) (line \(line))" : name
    }

    /// Why the filter's data does not take `uri`, or `nil` when it does (`IntentFilter.matchData`).
    /// - Parameters:
    ///   - uri: The URL.
    ///   - android15: Whether `<uri-relative-filter-group>`s count (Android 15+).
    ///   - hostTakes: Whether a host of the filter takes the URL's host and port, when the caller knows (from
    ///     ``AndroidFilterIndex``); `nil` compares every host.
    ///   - pathTakes: Whether a path attribute takes the URL's path, when the caller knows; `nil` tries each.
    func dataMismatch(_ uri: AndroidURI, android15: Bool = true, hostTakes: Bool? = nil, pathTakes: Bool? = nil) -> String? {
        guard !schemes.isEmpty else { return "it declares no android:scheme, so it takes no URL" }
        guard schemes.contains(uri.scheme) else {
            return "scheme \"\(uri.scheme)\" is not one of \(Self.listed(schemes)) (compared case-sensitively)"
        }
        guard !authorities.isEmpty else { return nil }
        guard hostTakes ?? authorities.contains(where: { $0.matches(host: uri.host, port: uri.port) }) else {
            let hosts = authorities.prefix(Self.listedCount + 1).map { a in a.port.map { "\(a.host):\($0)" } ?? a.host }
            return "host \"\(uri.host ?? "")\(uri.port >= 0 ? ":\(uri.port)" : "")\" is not one of \(Self.listed(hosts, of: authorities.count))"
        }
        let activeGroups = android15 ? groups : []
        if paths.isEmpty && activeGroups.isEmpty { return nil }
        if pathTakes ?? paths.contains(where: { $0.matches(utf16: uri.path) }) { return nil }
        let path = String(decoding: uri.path, as: UTF16.self)
        if let decision = AndroidURIRelativeFilterGroup.decide(activeGroups, uri) {
            if decision.allow { return nil }
            return "uri-relative-filter-group \(decision.index + 1)\(lineSuffix(activeGroups[decision.index].line)) blocks it (allow=\"false\") and no path attribute matches \"\(path)\""
        }
        let described = paths.prefix(4).map { "\($0.kind == .literal ? "path" : "path\($0.kind.attributeSuffix)")=\"\($0.pattern)\"" }
        return "path \"\(path)\" matches none of \(described.joined(separator: ", "))\(paths.count > 4 ? ", ..." : "")\(activeGroups.isEmpty ? "" : " and no uri-relative-filter-group allows it")"
    }

    private func lineSuffix(_ line: Int) -> String { line > 0 ? " (line \(line))" : "" }

    /// How many values an explanation lists before it gives the count of the rest: it says which values were
    /// compared without growing with them.
    static let listedCount = 4

    /// `"a", "b", "c", "d" and 96 more`: the first ``listedCount`` of `total` values, quoted.
    static func listed(_ values: [String], of total: Int? = nil) -> String {
        let total = total ?? values.count
        let shown = values.prefix(total > listedCount + 1 ? listedCount : listedCount + 1).map { "\"\($0)\"" }
        let rest = total - shown.count
        return shown.joined(separator: ", ") + (rest > 0 ? " and \(rest) more" : "")
    }
}
