extension AndroidLinkMatcher {
    /// Lints the Android side, and compares it with an AASA when one is given.
    ///
    /// Errors: patterns Android rejects (the app does not install), a dynamic rule set Android drops whole, filters
    /// and matchers that can never match, URLs on which iOS and Android disagree. Warnings: hosts that links reach
    /// but no `autoVerify` filter declares (the browser opens on Android 12+), `autoVerify` filters Android does not
    /// verify, dynamic rules that an earlier rule hides.
    ///
    /// Key paths are `AndroidManifest.xml:LINE`, `assetlinks.json[0]...` or the URL compared.
    ///
    /// - Parameters:
    ///   - aasa: The host's `apple-app-site-association`, to compare answers.
    ///   - appID: The iOS app (`TEAMID.bundle`) whose rules the AASA comparison uses.
    ///   - urls: URLs to compare; sample URLs are also made from the AASA's and the manifest's paths on every
    ///     verified host.
    /// - Returns: The findings, errors first.
    public func lint(aasa: AppSiteAssociation? = nil, appID: String? = nil, urls: [String] = []) -> [AssociationDiagnostic] {
        var findings: [AssociationDiagnostic] = []
        func add(_ severity: AssociationDiagnostic.Severity, _ code: AssociationDiagnostic.Code, _ keyPath: String, _ message: String) {
            findings.append(AssociationDiagnostic(severity: severity, code: code, keyPath: keyPath, message: message))
        }
        for problem in manifest.problems {
            let rejected = problem.message.contains("Android rejects it")
            add(rejected ? .error : .warning, rejected ? .invalidPattern : .filterNeverMatches, "AndroidManifest.xml:\(problem.line)", problem.message)
        }
        let verifiedHosts = manifest.intentFilters.filter(\.isAppLinkFilter).flatMap(\.authorities)
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
                for authority in filter.authorities where !verifiedHosts.contains(where: { $0.host.lowercased() == authority.host.lowercased() }) {
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
            if let rules = statement.dynamicRules {
                // Dynamic rules only narrow: an include whose paths no filter takes never opens the app.
                let hosts = manifest.intentFilters.filter(\.isAppLinkFilter).flatMap(\.authorities)
                    .filter { !$0.isWildcard }.map(\.host)
                for rule in rules where !rule.exclude {
                    guard let path = rule.path, let host = hosts.first else { continue }
                    let sample = String(path.map { $0 == "*" || $0 == "?" ? "x" : $0 })
                    let uri = AndroidURI("https://\(host)\(sample.hasPrefix("/") ? "" : "/")\(sample)")
                    let taken = uri.map { uri in manifest.intentFilters.contains { $0.takesTappedLinks && $0.dataMismatch(uri) == nil } } ?? true
                    if !taken {
                        add(.warning, .filterNeverMatches, rule.keyPath, "\(rule.summary) allows paths no intent filter takes (such as \(sample) on \(host)): dynamic rules cannot widen the manifest, so it never opens the app")
                    }
                }
                for (i, rule) in rules.enumerated() {
                    if let earlier = rules[..<i].firstIndex(where: { $0.isCatchAll || ($0.path == rule.path && $0.query == rule.query && $0.fragment == rule.fragment) }) {
                        add(.warning, .filterNeverMatches, rule.keyPath, "\(rule.summary) never decides: dynamic_app_link_components[\(earlier)] \(rules[earlier].summary) matches every URL it matches, and the first match wins")
                    }
                }
            }
        } else if statements != nil {
            add(.error, .hostNotVerified, "assetlinks.json", "no handle_all_urls statement for \(packageName ?? "the app"): no host verifies, every link opens the browser")
        }
        if let aasa, let appID {
            let iOS = AppLinkMatcher(aasa)
            for url in urls + sampleURLs(aasa: aasa) {
                let ios = iOS.explain(url, appID: appID)
                let android = explain(url)
                guard (ios.outcome == .match) != android.opensApp else { continue }
                let iosSays = ios.outcome == .match ? "opens the app" : "opens the browser"
                let androidSays = android.opensApp ? "opens the app" : "opens the browser"
                add(.error, .platformsDisagree, url, "iOS \(iosSays) (\(ios.explanation)); Android \(androidSays) (\(android.reason))")
            }
        }
        return findings.enumerated().sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }.map(\.element)
    }

    /// URLs on every verified host made from the AASA's rule paths and the manifest's literal paths and prefixes
    /// (a `*` or `?` becomes `x`).
    func sampleURLs(aasa: AppSiteAssociation) -> [String] {
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
                let concrete = String(path.map { $0 == "*" || $0 == "?" ? "x" : $0 })
                let url = "https://\(host)\(concrete.hasPrefix("/") ? "" : "/")\(concrete)"
                if seen.insert(url).inserted { urls.append(url) }
            }
        }
        return urls
    }
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
