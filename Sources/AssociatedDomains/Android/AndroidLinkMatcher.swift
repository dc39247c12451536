/// Answers "does this URL open the app on Android?" as Android decides it: the manifest's intent filters, the
/// verification of the host, and on Android 15+ the `<uri-relative-filter-group>`s and the Dynamic App Links rules of
/// the host's `assetlinks.json`.
///
/// The decision, in order:
/// 1. a filter declaring `VIEW`, `BROWSABLE` and `DEFAULT` must take the URL (scheme, host, port, path attributes);
/// 2. for `http`/`https`, the host must be verified: declared in an `autoVerify` filter (Android 12+ verifies hosts
///    one by one; Android 11 and earlier verify every web host of the app all or nothing) and, when statements are
///    given, listed for the package in its `assetlinks.json` (fingerprints are not checked here: `doctor` does);
///    an unverified host opens the browser on Android 12+;
/// 3. Android 15+: the first dynamic rule that matches decides, and a URL no rule matches is excluded; a malformed
///    rule set is ignored whole.
///
/// ```swift
/// let manifest = try AndroidManifest(parsing: #"<manifest package="com.example.app"/>"#.utf8)
/// let assetLinks = try AssetLinks(parsing: "[]".utf8)
/// let matcher = AndroidLinkMatcher(manifest: manifest, assetLinks: assetLinks, packageName: "com.example.app")
/// let opens = matcher.explain("https://news.example.com/pub/acc?x=1").opensApp   // false: no filter
/// ```
public struct AndroidLinkMatcher: Sendable {
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
        /// URLs longer than this (in UTF-8 bytes) are not matched against dynamic rules, and are then excluded on
        /// Android 15+: 65 536, the iOS matcher's limit (``AppLinkMatcher/Configuration``).
        package var maximumURLLength = AppLinkMatcher.Configuration().maximumURLLength
        /// The most steps answering one URL may take, the iOS matcher's budget: 2^26. Past it the dynamic rules stop
        /// between two rules (the one being matched finishes first: each of its globs costs at most 4 098 steps per
        /// byte it reads) and the URL is excluded, with a reason that says it was not matched. Tests lower it.
        package var maximumMatchingSteps = AppLinkMatcher.Configuration().maximumMatchingSteps

        /// Creates a configuration.
        /// - Parameter platform: Which Android's rules to apply (default: Android 15 and later).
        public init(platform: Platform = .android15AndLater) {
            self.platform = platform
        }
    }

    /// The manifest.
    package let manifest: AndroidManifest
    /// The host's `assetlinks.json` statements, or `nil` to assume every `autoVerify` host verifies.
    package var statements: [AndroidAssetStatement]?
    /// What reading the host's `assetlinks.json` found (``AssetLinks/diagnostics``).
    let assetLinksDiagnostics: [AssociationDiagnostic]
    /// The application ID whose statement counts (default: the manifest's `package`).
    package let packageName: String?
    /// Settings.
    package let configuration: Configuration
    /// The manifest's filters indexed by host and path.
    let index: AndroidFilterIndex

    /// Creates a matcher.
    /// - Parameters:
    ///   - manifest: The app's manifest.
    ///   - assetLinks: The host's `assetlinks.json`, or `nil` to assume every `autoVerify` host verifies.
    ///   - packageName: The application ID whose statement counts (default: the manifest's `package`).
    ///   - configuration: Which Android's rules to apply.
    public init(manifest: AndroidManifest, assetLinks: AssetLinks? = nil, packageName: String? = nil, configuration: Configuration = .init()) {
        self.init(
            manifest: manifest, statements: assetLinks?.statements, packageName: packageName, configuration: configuration,
            assetLinksDiagnostics: assetLinks?.diagnostics ?? [])
    }

    /// Creates a matcher from statements already read.
    package init(
        manifest: AndroidManifest, statements: [AndroidAssetStatement]?, packageName: String? = nil,
        configuration: Configuration = .init(), assetLinksDiagnostics: [AssociationDiagnostic] = []
    ) {
        self.manifest = manifest
        self.statements = statements
        self.assetLinksDiagnostics = assetLinksDiagnostics
        self.packageName = packageName ?? manifest.package
        self.configuration = configuration
        self.index = AndroidFilterIndex(manifest)
    }

    /// The statement for ``packageName``, if the statements list one.
    package var statement: AndroidAssetStatement? {
        guard let statements else { return nil }
        return statements.first { packageName == nil || $0.packageName == packageName }
    }

    /// Whether `url` opens the app, which filter and rule decided, and why.
    ///
    /// - Parameter url: A URL as a user taps it.
    /// - Returns: The answer with its explanation.
    public func explain(_ url: String) -> AndroidLinkMatch {
        var steps = 0
        return explain(url, steps: &steps)
    }

    /// ``explain(_:)``, adding the work done to `steps`: one step per host entry looked at, per filter examined, per
    /// glob pattern and group tried and per dynamic rule tried.
    func explain(_ url: String, steps: inout Int) -> AndroidLinkMatch {
        let start = steps
        guard let uri = AndroidURI(url) else {
            return AndroidLinkMatch(url: url, opensApp: false, reason: "not an absolute URL")
        }
        let android15 = configuration.platform == .android15AndLater
        guard !index.tapped.isEmpty else {
            return AndroidLinkMatch(url: url, opensApp: false, reason: "no intent filter declares VIEW, BROWSABLE and DEFAULT, so no tapped link reaches the app")
        }
        let filters = manifest.intentFilters
        let hostKey = uri.host.map(AndroidFilterIndex.hostKey)
        let hostAndPort = hostKey.map { index.filters(host: $0, port: uri.port, steps: &steps) } ?? []
        let anyPort = hostKey.map { index.filters(host: $0, port: nil, steps: &steps) } ?? []
        let affixes = index.filtersWithAffixTaking(uri.path)
        guard let taking = takingFilter(uri, android15: android15, hostAndPort: hostAndPort, affixes: affixes, steps: &steps) else {
            // The nearest filter is the first that got furthest: scheme, host and port; then scheme and host; then
            // scheme; then the first filter.
            func firstWithScheme(_ list: [Int]) -> Int? {
                list.first { index.isTapped[$0] && filters[$0].schemes.contains(uri.scheme) }
            }
            let nearest = firstWithScheme(hostAndPort) ?? firstWithScheme(anyPort) ?? firstWithScheme(index.tapped)
                ?? index.tapped[0]
            let why = filters[nearest].dataMismatch(
                uri, android15: android15, hostTakes: hostAndPort.contains(nearest),
                pathTakes: index.pathTakes(nearest, uri.path, affixes: affixes)) ?? ""
            return AndroidLinkMatch(url: url, opensApp: false, reason: "no intent filter takes it; nearest \(filters[nearest].label): \(why)")
        }
        let filter = filters[taking]
        guard uri.scheme == "http" || uri.scheme == "https" else {
            return AndroidLinkMatch(url: url, opensApp: true, filter: filter.label,
                                    reason: "custom scheme \"\(uri.scheme)\": no verification, any installed app may claim it (Android asks when several do)")
        }
        // Verification: which hosts Android verifies. Ports do not matter to verification: the host does. Android 11
        // and earlier verify every web host of every tapped-link filter as soon as one filter asks (all or nothing);
        // Android 12+ only autoVerify hosts.
        let allOrNothing = configuration.platform == .android11AndEarlier && index.hasAppLinkFilter
        let declared = anyPort.contains { allOrNothing ? index.isTappedWeb[$0] : index.isAppLink[$0] }
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
            } else if let rules = statement.dynamicRules {
                guard url.utf8.count <= configuration.maximumURLLength else {
                    return AndroidLinkMatch(url: url, opensApp: false, filter: filter.label, rule: nil,
                                            reason: "\(filter.label) takes it, but the URL is longer than \(configuration.maximumURLLength) bytes: it was not matched against the dynamic_app_link_components rules, and one that no rule matches is excluded on Android 15+")
                }
                let decision = statement.firstMatch(uri, maximumSteps: configuration.maximumMatchingSteps - (steps - start), steps: &steps)
                // A rule refused for the work budget was passed over: the answer may not be a device's.
                let refused = decision.firstRefused.map {
                    "; dynamic_app_link_components[\($0)] was not tried: its globs cost more than the matching work budget (tooMuchMatchingWork)"
                } ?? ""
                guard let (index, rule) = decision.match else {
                    if decision.stoppedForBudget {
                        return AndroidLinkMatch(url: url, opensApp: false, filter: filter.label, rule: nil,
                                                reason: "\(filter.label) takes it, but it was not matched: this URL against the \(rules.count) dynamic_app_link_components rules needs more than \(configuration.maximumMatchingSteps) matching steps (the matcher's budget), and one that no rule matches is excluded on Android 15+; shorten the URL, or give the rules literal text that tells them apart" + refused)
                    }
                    return AndroidLinkMatch(url: url, opensApp: false, filter: filter.label, rule: nil,
                                            reason: "\(filter.label) takes it, but no dynamic_app_link_components rule matches, so Android 15+ excludes it" + refused)
                }
                let name = "dynamic_app_link_components[\(index)]"
                if rule.exclude {
                    return AndroidLinkMatch(url: url, opensApp: false, filter: filter.label, rule: name,
                                            reason: "\(filter.label) takes it, but \(name) \(rule.summary) excludes it on Android 15+" + refused)
                }
                return AndroidLinkMatch(url: url, opensApp: true, filter: filter.label, rule: name,
                                        reason: "\(filter.label) takes it and \(name) \(rule.summary) allows it" + notes.map { "; " + $0 }.joined() + refused)
            }
        }
        return AndroidLinkMatch(url: url, opensApp: true, filter: filter.label,
                                reason: "\(filter.label) takes it (autoVerify host \"\(host)\")" + notes.map { "; " + $0 }.joined())
    }

    /// The first filter taking tapped links whose data takes `uri` (`nil` when none does), given the filters whose
    /// hosts take the URL's host and port and ``AndroidFilterIndex/filtersWithAffixTaking(_:)`` for its path: only
    /// those and the filters that list no host can take it.
    func takingFilter(_ uri: AndroidURI, android15: Bool, hostAndPort: [Int], affixes: Set<Int>, steps: inout Int) -> Int? {
        let filters = manifest.intentFilters
        var listed = hostAndPort.makeIterator(), unlisted = index.tappedWithoutHosts.makeIterator()
        var nextListed = listed.next(), nextUnlisted = unlisted.next()
        // The two lists merged in manifest order.
        while nextListed != nil || nextUnlisted != nil {
            let f: Int
            if let l = nextListed, nextUnlisted.map({ l < $0 }) ?? true {
                f = l
                nextListed = listed.next()
                guard index.isTapped[f] else { continue }
            } else {
                f = nextUnlisted!
                nextUnlisted = unlisted.next()
            }
            steps += 1 + index.globCount(f) + (android15 ? filters[f].groups.count : 0)
            let takes = filters[f].dataMismatch(
                uri, android15: android15, hostTakes: true, pathTakes: index.pathTakes(f, uri.path, affixes: affixes)) == nil
            if takes { return f }
        }
        return nil
    }

    /// ``takingFilter(_:android15:hostAndPort:affixes:steps:)`` with the lookups made here.
    func takingFilter(_ uri: AndroidURI, android15: Bool, steps: inout Int) -> Int? {
        let hostAndPort = uri.host.map { index.filters(host: AndroidFilterIndex.hostKey($0), port: uri.port, steps: &steps) } ?? []
        return takingFilter(
            uri, android15: android15, hostAndPort: hostAndPort, affixes: index.filtersWithAffixTaking(uri.path),
            steps: &steps)
    }
}
