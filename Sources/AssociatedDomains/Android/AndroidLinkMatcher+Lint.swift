extension AndroidLinkMatcher {
    /// Lints the Android side, and compares it with an AASA when one is given.
    ///
    /// Errors: patterns Android rejects (the app does not install), a dynamic rule set Android drops whole, dynamic
    /// rules past the matching work budget (never matched here), filters and matchers that can never match, URLs on
    /// which iOS and Android disagree. Warnings: hosts that links reach
    /// but no `autoVerify` filter declares (the browser opens on Android 12+), `autoVerify` filters Android does not
    /// verify, dynamic rules that an earlier rule hides.
    ///
    /// Key paths are `AndroidManifest.xml:LINE`, `assetlinks.json (PACKAGE)`, the key path of a repeated key in
    /// `assetlinks.json` (`[0].target.package_name`), or the URL compared.
    ///
    /// The cross-checks (dynamic rules against the manifest's filters, iOS against Android on each URL) stop after
    /// 2^26 matching steps, given URLs first, with a warning that says how far they got: samples are
    /// made from every verified host and every path, so their number is a product, and each answer costs what
    /// matching it costs.
    ///
    /// - Parameters:
    ///   - aasa: The host's `apple-app-site-association`, to compare answers.
    ///   - appID: The iOS app (`TEAMID.bundle`) whose rules the AASA comparison uses.
    ///   - urls: URLs to compare; sample URLs are also made from the AASA's and the manifest's paths on every
    ///     verified host.
    /// - Returns: The findings, errors first.
    public func lint(aasa: AppSiteAssociation? = nil, appID: String? = nil, urls: [String] = []) -> [AssociationDiagnostic] {
        var steps = 0
        return lint(aasa: aasa, appID: appID, urls: urls, budget: Self.comparisonBudget, steps: &steps)
    }

    /// ``lint(aasa:appID:urls:)`` with the cross-checks' `budget`, adding the work done to `steps`: one step per host
    /// looked up and per dynamic rule compared with those before it, and what matching each URL costs (what the
    /// tests hold to linear growth).
    func lint(aasa: AppSiteAssociation?, appID: String?, urls: [String], budget: Int, steps: inout Int) -> [AssociationDiagnostic] {
        var findings: [AssociationDiagnostic] = []
        func add(_ severity: AssociationDiagnostic.Severity, _ code: AssociationDiagnostic.Code, _ keyPath: String, _ message: String) {
            findings.append(AssociationDiagnostic(severity: severity, code: code, keyPath: keyPath, message: message))
        }
        findings += manifest.diagnostics
        // The reading's repeated keys; a dropped rule set is reported below, for the app's statement.
        findings += assetLinksDiagnostics.filter { $0.code == .duplicateKey }
        // Looked up, not compared with each: a filter of many hosts costs its hosts, not their square.
        let verifiedHosts = Set(manifest.intentFilters.filter(\.isAppLinkFilter).flatMap(\.authorities).map { $0.host.lowercased() })
        // The comparisons' budget counts from here, whatever the caller's steps before.
        let start = steps
        for filter in manifest.intentFilters {
            let at = "AndroidManifest.xml:\(filter.line)"
            let web = !filter.schemes.isEmpty && filter.schemes.allSatisfy { $0 == "http" || $0 == "https" }
            if !filter.authorities.isEmpty && filter.schemes.isEmpty {
                add(.error, .filterNeverMatches, at, "\(filter.label) declares android:host but no android:scheme: it takes no URL at all")
            }
            if filter.authorities.isEmpty && !filter.paths.isEmpty {
                add(.warning, .filterNeverMatches, at, "\(filter.label) declares path attributes but no android:host: Android ignores the paths and takes every path")
            }
            if filter.actions.contains(AndroidIntentFilter.view) && filter.schemes.contains(where: { $0.hasPrefix("http") }) && !filter.takesTappedLinks {
                add(.error, .filterNeverMatches, at, "\(filter.label) lacks category BROWSABLE or DEFAULT: a link tapped in an email never reaches it")
            }
            if filter.autoVerify && !filter.isAppLinkFilter {
                add(.warning, .hostNotVerified, at, "\(filter.label) has android:autoVerify=\"true\" but Android verifies only filters with VIEW, BROWSABLE, DEFAULT and only http/https schemes: its hosts are not verified")
            }
            if filter.takesTappedLinks && web {
                steps += filter.authorities.count
                for authority in filter.authorities where !verifiedHosts.contains(authority.host.lowercased()) {
                    add(.warning, .hostNotVerified, at, "host \"\(authority.host)\" is in no android:autoVerify=\"true\" filter: Android 12+ opens its links in the browser")
                }
            }
            for pattern in filter.paths + filter.groups.flatMap({ $0.matchers.map(\.pattern) }) where pattern.neverMatchesAnything {
                add(.error, .filterNeverMatches, at, "\(pattern.kind.rawValue) pattern \"\(pattern.pattern)\" can never match: its greedy .* (or [^...]*) leaves nothing for what follows, and Android does not backtrack")
            }
        }
        if let statement {
            let base = "assetlinks.json (\(statement.packageName))"
            if let dropped = statement.droppedReason {
                add(.error, .dynamicRulesDropped, base, dropped)
            }
            if let refused = AndroidAssetStatement.workBudgetDiagnostic([statement]) { findings.append(refused) }
            if let rules = statement.dynamicRules {
                // Dynamic rules only narrow: an include whose paths no filter takes never opens the app.
                let hosts = manifest.intentFilters.filter(\.isAppLinkFilter).flatMap(\.authorities)
                    .filter { !$0.isWildcard }.map(\.host)
                var checked = 0
                let includes = rules.filter { !$0.exclude && $0.path != nil }
                for rule in includes {
                    guard let path = rule.path, let host = hosts.first else { break }
                    guard steps - start <= budget else {
                        add(.warning, .comparisonsStopped, base, "the dynamic rules were checked against the intent filters up to the comparison budget (\(budget) matching steps): \(includes.count - checked) of \(includes.count) allowing rules were not")
                        break
                    }
                    checked += 1
                    let sample = String(path.map { $0 == "*" || $0 == "?" ? "x" : $0 })
                    let uri = AndroidURI("https://\(host)\(sample.hasPrefix("/") ? "" : "/")\(sample)")
                    let taken = uri.map { takingFilter($0, android15: true, steps: &steps) != nil } ?? true
                    if !taken {
                        add(.warning, .filterNeverMatches, rule.keyPath, "\(rule.summary) allows paths no intent filter takes (such as \(sample) on \(host)): dynamic rules cannot widen the manifest, so it never opens the app")
                    }
                }
                // The first rule of each (path, query, fragment), and the first catch-all: an earlier one of either
                // hides a rule, found by lookup rather than by a scan of the rules before it.
                struct Shape: Hashable {
                    var path: String?
                    var query: [AndroidAssetStatement.Rule.QueryItem]?
                    var fragment: String?
                }
                var firstOfShape: [Shape: Int] = [:]
                var firstCatchAll: Int?
                for (i, rule) in rules.enumerated() {
                    steps += 1
                    let shape = Shape(path: rule.path, query: rule.query, fragment: rule.fragment)
                    let sameShape = firstOfShape[shape]
                    if let earlier = [firstCatchAll, sameShape].compactMap({ $0 }).min() {
                        add(.warning, .filterNeverMatches, rule.keyPath, "\(rule.summary) never decides: dynamic_app_link_components[\(earlier)] \(rules[earlier].summary) matches every URL it matches, and the first match wins")
                    }
                    if sameShape == nil { firstOfShape[shape] = i }
                    if firstCatchAll == nil, rule.isCatchAll { firstCatchAll = i }
                }
            }
        } else if statements != nil {
            add(.error, .hostNotVerified, "assetlinks.json", "no handle_all_urls statement for \(packageName ?? "the app"): no host verifies, every link opens the browser")
        }
        if let aasa, let appID {
            let iOS = AppLinkMatcher(aasa)
            var compared = 0
            let (samples, possible) = sampleURLs(aasa: aasa)
            if possible > samples.count {
                add(.warning, .comparisonsStopped, "", "\(possible) sample URLs (verified hosts × paths) is more than the \(Self.maximumSampleURLs) compared at most; give the URLs that matter as arguments")
            }
            let total = urls.count + samples.count
            for url in urls + samples {
                guard steps - start <= budget else {
                    add(.warning, .comparisonsStopped, "", "iOS and Android were compared up to the comparison budget (\(budget) matching steps): on \(compared) of \(total) URLs; give the URLs that matter as arguments, they are compared first")
                    break
                }
                compared += 1
                steps += 1
                let ios = iOS.evaluate(url, appID: appID, domain: nil, collectNearMisses: false, steps: &steps)
                let android = explain(url, steps: &steps)
                guard (ios.outcome == .match) != android.opensApp else { continue }
                let iosSays = ios.outcome == .match ? "opens the app" : "opens the browser"
                let androidSays = android.opensApp ? "opens the app" : "opens the browser"
                add(.error, .platformsDisagree, url, "iOS \(iosSays) (\(ios.explanation)); Android \(androidSays) (\(android.reason))")
            }
        }
        // Errors first, each severity in the order found.
        return findings.filter { $0.severity == .error } + findings.filter { $0.severity == .warning }
    }

    /// The most matching steps ``lint(aasa:appID:urls:)`` spends on its cross-checks: 67 108 864 (2^26), a second or
    /// two of work, tens of thousands of sample URLs on a file and manifest of thousands of rules.
    static let comparisonBudget = 1 << 26

    /// URLs on every verified host made from the AASA's rule paths and the manifest's literal paths and prefixes
    /// (a `*` or `?` becomes `x`): at most ``maximumSampleURLs`` of them, and how many there could be (hosts × paths).
    func sampleURLs(aasa: AppSiteAssociation) -> (urls: [String], possible: Int) {
        var paths: [String] = []
        for detail in aasa.applinks?.details ?? [] {
            for component in detail.components ?? [] {
                if let path = component.path { paths.append(path) }
            }
            for path in detail.paths ?? [] { paths.append(path.hasPrefix("NOT ") ? String(path.dropFirst(4)) : path) }
        }
        for filter in manifest.intentFilters where filter.isAppLinkFilter {
            for pattern in filter.paths where pattern.kind == .literal || pattern.kind == .prefix {
                paths.append(pattern.kind == .prefix ? pattern.pattern + "x" : pattern.pattern)
            }
        }
        let hosts = manifest.intentFilters.filter(\.isAppLinkFilter).flatMap(\.authorities).filter { !$0.isWildcard && $0.port == nil }.map(\.host)
        var seen = Set<String>()
        var urls: [String] = []
        for host in hosts {
            for path in paths {
                // Hosts × paths is a product, and the URLs are held: past the cap they are not written.
                guard urls.count < Self.maximumSampleURLs else { return (urls, hosts.count * paths.count) }
                let concrete = String(path.map { $0 == "*" || $0 == "?" ? "x" : $0 })
                let url = "https://\(host)\(concrete.hasPrefix("/") ? "" : "/")\(concrete)"
                if seen.insert(url).inserted { urls.append(url) }
            }
        }
        return (urls, urls.count)
    }

    /// The most sample URLs ``sampleURLs(aasa:)`` makes: 262 144 (2^18).
    static let maximumSampleURLs = 1 << 18
}

extension AndroidAssetStatement.Rule {
    /// A rule with no query or fragment and a path of only `*` (or none): it matches every URL.
    var isCatchAll: Bool {
        query == nil && fragment == nil && (path == nil || path!.allSatisfy { $0 == "*" })
    }
}

extension AndroidPattern {
    /// Whether an advanced glob can never match: a token that takes any character (`.` or `[^...]`) without limit
    /// followed by a token that needs at least one character, which the greedy first token has already eaten.
    /// (A `.*` in a *simple* glob skips only to the next character, so it has no such trap.)
    var neverMatchesAnything: Bool {
        guard kind == .advancedGlob else { return false }
        var ip = 0
        var previousUnbounded = false
        while ip < parsed.count {
            let entry = parsed[ip]
            var greedyAny = false
            if entry == AdvancedGlob.any {
                greedyAny = true
                ip += 1
            } else if entry == AdvancedGlob.setStart || entry == AdvancedGlob.inverseSetStart {
                // An inverse set eats anything outside it; treat only `.` as certain, sets are too specific.
                ip += 1
                while ip < parsed.count && parsed[ip] != AdvancedGlob.setStop { ip += 1 }
                ip += 1
            } else {
                ip += 1
            }
            var minimum: Int32 = 1, unbounded = false
            if ip < parsed.count {
                switch parsed[ip] {
                case AdvancedGlob.zeroOrMore: (minimum, unbounded) = (0, true); ip += 1
                case AdvancedGlob.oneOrMore: unbounded = true; ip += 1
                case AdvancedGlob.rangeStart:
                    minimum = parsed[ip + 1]
                    unbounded = parsed[ip + 2] == .max
                    ip += 4
                default: break
                }
            }
            if previousUnbounded && minimum >= 1 { return true }
            previousUnbounded = previousUnbounded || (greedyAny && unbounded)
        }
        return false
    }
}
