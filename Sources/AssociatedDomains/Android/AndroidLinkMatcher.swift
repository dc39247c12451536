/// Answers "does this URL open the app on Android?" as Android decides it: the manifest's intent filters, the
/// verification of the host, and on Android 15+ the `<uri-relative-filter-group>`s and the Dynamic App Links rules of
/// the host's `assetlinks.json`.
///
/// The decision, in order:
/// 1. a filter declaring `VIEW`, `BROWSABLE` and `DEFAULT` must take the URL (``AndroidIntentFilter``);
/// 2. for `http`/`https`, the host must be verified: declared in an `autoVerify` filter (Android 12+ verifies hosts
///    one by one; Android 11 and earlier verify every web host of the app all or nothing) and, when statements are
///    given, listed for the package in its `assetlinks.json` (fingerprints are not checked here: `doctor` does);
///    an unverified host opens the browser on Android 12+;
/// 3. Android 15+: the first dynamic rule that matches decides, and a URL no rule matches is excluded; a malformed
///    rule set is ignored whole.
///
/// ```swift
/// let manifest = try AndroidManifest(parsing: "<manifest package=\"com.example.app\"/>")
/// let statements = try AndroidAssetStatement.statements(in: Array("[]".utf8))
/// let matcher = AndroidLinkMatcher(manifest: manifest, statements: statements, packageName: "com.example.app")
/// let opens = matcher.explain("https://news.example.com/pub/acc?x=1").opensApp   // false: no filter
/// ```
public struct AndroidLinkMatcher: Sendable, Hashable {
    /// Settings.
    public struct Configuration: Sendable, Hashable {
        /// The Android versions whose rules differ.
        public enum Platform: String, Sendable, Hashable, CaseIterable {
            /// Android 6 to 11: `autoVerify` verifies all web hosts of the app or none.
            case android11AndEarlier = "android11"
            /// Android 12 to 14: hosts verify one by one; no groups, no dynamic rules.
            case android12To14 = "android12"
            /// Android 15 and later: `<uri-relative-filter-group>` and Dynamic App Links apply.
            case android15AndLater = "android15"
        }

        /// Which Android's rules to apply.
        public var platform: Platform

        /// Creates a configuration.
        /// - Parameter platform: Which Android's rules to apply (default: Android 15 and later).
        public init(platform: Platform = .android15AndLater) {
            self.platform = platform
        }
    }

    /// The manifest.
    public var manifest: AndroidManifest
    /// The host's `assetlinks.json` statements, or `nil` to assume every `autoVerify` host verifies.
    public var statements: [AndroidAssetStatement]?
    /// The application ID whose statement counts (default: the manifest's `package`).
    public var packageName: String?
    /// Settings.
    public var configuration: Configuration

    /// Creates a matcher.
    /// - Parameters:
    ///   - manifest: The manifest.
    ///   - statements: The host's `assetlinks.json` statements, or `nil` to assume `autoVerify` hosts verify.
    ///   - packageName: The application ID (default: the manifest's `package`).
    ///   - configuration: Settings.
    public init(manifest: AndroidManifest, statements: [AndroidAssetStatement]? = nil, packageName: String? = nil, configuration: Configuration = .init()) {
        self.manifest = manifest
        self.statements = statements
        self.packageName = packageName ?? manifest.package
        self.configuration = configuration
    }

    /// The statement for ``packageName``, if the statements list one.
    public var statement: AndroidAssetStatement? {
        guard let statements else { return nil }
        return statements.first { packageName == nil || $0.packageName == packageName }
    }

    /// Whether `url` opens the app, which filter and rule decided, and why.
    ///
    /// - Parameter url: A URL as a user taps it.
    /// - Returns: The answer with its explanation.
    public func explain(_ url: String) -> AndroidLinkMatch {
        guard let uri = AndroidURI(url) else {
            return AndroidLinkMatch(url: url, opensApp: false, reason: "not an absolute URL")
        }
        let android15 = configuration.platform == .android15AndLater
        let candidates = manifest.intentFilters.filter(\.takesTappedLinks)
        guard !candidates.isEmpty else {
            return AndroidLinkMatch(url: url, opensApp: false, reason: "no intent filter declares VIEW, BROWSABLE and DEFAULT, so no tapped link reaches the app")
        }
        var taking: AndroidIntentFilter?
        var nearest: (rank: Int, filter: AndroidIntentFilter, why: String)?
        for filter in candidates {
            guard let why = filter.dataMismatch(uri, android15: android15) else {
                taking = filter
                break
            }
            // Rank how far the URL got: scheme, host, path.
            let rank = !filter.schemes.contains(uri.scheme) ? 0
                : filter.authorities.contains(where: { $0.matches(host: uri.host, port: uri.port) }) ? 3
                : filter.authorities.contains(where: { $0.matches(host: uri.host, port: $0.port ?? -1) }) ? 2 : 1
            if nearest == nil || rank > nearest!.rank { nearest = (rank, filter, why) }
        }
        guard let filter = taking else {
            let why = nearest.map { "\($0.filter.label): \($0.why)" } ?? ""
            return AndroidLinkMatch(url: url, opensApp: false, reason: "no intent filter takes it; nearest \(why)")
        }
        guard uri.scheme == "http" || uri.scheme == "https" else {
            return AndroidLinkMatch(url: url, opensApp: true, filter: filter.label,
                                    reason: "custom scheme \"\(uri.scheme)\": no verification, any installed app may claim it (Android asks when several do)")
        }
        // Verification: which hosts Android verifies.
        let verifiable = manifest.intentFilters.filter(\.isAppLinkFilter)
        // Ports do not matter to verification: the host does. Android 11 and earlier verify every web host of
        // every tapped-link filter as soon as one filter asks (all or nothing); Android 12+ only autoVerify hosts.
        let allOrNothing = configuration.platform == .android11AndEarlier && !verifiable.isEmpty
        let verifying = allOrNothing
            ? manifest.intentFilters.filter { $0.takesTappedLinks && $0.schemes.contains { $0 == "http" || $0 == "https" } }
            : verifiable
        let declared = verifying.contains { f in f.authorities.contains { $0.matches(host: uri.host, port: $0.port ?? -1) } }
        let host = uri.host ?? ""
        guard declared else {
            let platform = configuration.platform == .android11AndEarlier ? "Android 11 and earlier show a chooser or the browser" : "Android 12+ opens the browser"
            return AndroidLinkMatch(url: url, opensApp: false, filter: filter.label,
                                    reason: "\(filter.label) takes it, but no intent filter with android:autoVerify=\"true\" (VIEW, BROWSABLE, DEFAULT, http/https only) declares host \"\(host)\": it is not verified, so \(platform)")
        }
        var notes: [String] = []
        if allOrNothing {
            notes.append("Android 11 and earlier verify all the app's web hosts together: one host that fails verification fails them all")
        }
        var statement: AndroidAssetStatement?
        if statements != nil {
            guard let found = self.statement else {
                return AndroidLinkMatch(url: url, opensApp: false, filter: filter.label,
                                        reason: "assetlinks.json has no handle_all_urls statement for \(packageName ?? "the app"): verification of \"\(host)\" fails, the browser opens")
            }
            statement = found
        } else {
            notes.append("assuming \"\(host)\"'s assetlinks.json verifies")
        }
        if android15, let statement {
            if let dropped = statement.droppedReason {
                notes.append("dynamic rules ignored: \(dropped)")
            } else if statement.dynamicRules != nil {
                guard let (index, rule) = statement.firstMatch(uri) else {
                    return AndroidLinkMatch(url: url, opensApp: false, filter: filter.label, rule: nil,
                                            reason: "\(filter.label) takes it, but no dynamic_app_link_components rule matches, so Android 15+ excludes it")
                }
                let name = "dynamic_app_link_components[\(index)]"
                if rule.exclude {
                    return AndroidLinkMatch(url: url, opensApp: false, filter: filter.label, rule: name,
                                            reason: "\(filter.label) takes it, but \(name) \(rule.summary) excludes it on Android 15+")
                }
                return AndroidLinkMatch(url: url, opensApp: true, filter: filter.label, rule: name,
                                        reason: "\(filter.label) takes it and \(name) \(rule.summary) allows it" + notes.map { "; " + $0 }.joined())
            }
        }
        return AndroidLinkMatch(url: url, opensApp: true, filter: filter.label,
                                reason: "\(filter.label) takes it (autoVerify host \"\(host)\")" + notes.map { "; " + $0 }.joined())
    }
}
