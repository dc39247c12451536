internal import _LinkKitText

/// Answers "will this URL open this app?" for one association file, as iOS does.
///
/// Build it once per file (every pattern is compiled here) and ask many times; one answer against a
/// 1 000-rule file takes microseconds. The rules (from recorded `swcutil` output):
/// - details in order, rules in order, first match wins; an `exclude` rule turns its match into ``AppLinkMatch/Outcome-swift.enum/exclude``;
/// - `components` replaces `paths`; legacy `"NOT /x"` is `{"/": "/x", "exclude": true}`;
/// - `/`, `?`, `#`, `exclude`, `caseSensitive`, `percentEncoded` merge per key from `applinks.defaults`, the
///   detail's `defaults`, then the rule;
/// - anchored globs: `*` any run (including `/`), `?` one character, `$(name)` one value of a variable;
/// - trailing slashes ignored, a leading `//` collapsed, `X/*` also matches `X`, an empty path is `/`;
/// - a missing query item or fragment matches as `""`; every repetition of a query item must match.
///
/// ```swift
/// let file = try AppSiteAssociation(parsing: #"{"applinks":{"details":[{"appID":"ABCDE12345.com.example.app","paths":["/pub/acc"]}]}}"#.utf8)
/// let matcher = AppLinkMatcher(file)
/// matcher.match("https://news.example.com/pub/acc?_ri_=1", appID: "ABCDE12345.com.example.app").outcome  // .match
/// matcher.match("https://news.example.com/pub/cc", appID: "ABCDE12345.com.example.app").outcome          // .none
/// ```
public struct AppLinkMatcher: Sendable {
    /// How to match.
    public struct Configuration: Sendable, Hashable {
        /// Which generation of Apple's matcher to reproduce.
        public enum Platform: String, Sendable, Hashable {
            /// iOS 13 and later: `appIDs`/`components`/`defaults`, query and fragment rules.
            case iOS13AndLater
            /// iOS 9–12: only `appID` and `paths`; query and fragment ignored; always case-sensitive and
            /// compared percent-encoded.
            case iOS9To12
        }

        /// Which matcher to reproduce. Default ``Platform-swift.enum/iOS13AndLater``.
        public var platform: Platform
        /// Whether `caseSensitive: false` also folds the names of query dictionary items (not only values).
        /// Apple does not document it; default `true`, because the dictionary's keys are part of the rule that
        /// `caseSensitive` describes.
        public var foldsQueryItemNames: Bool
        /// Whether `defaults` apply to rules written as legacy `paths` on iOS 13+. Apple documents `defaults`
        /// with `components` only; default `false`, so a legacy path means the same on every iOS version.
        public var appliesDefaultsToLegacyPaths: Bool
        /// URLs longer than this (in UTF-8 bytes) are answered `none` without matching: 65 536.
        package var maximumURLLength = 65_536
        /// The most steps matching one URL may take, a step being about one byte of the URL read by one pattern
        /// (or one rule tried): 2^26, a fraction of a second. Fixed, so that no file and no URL can hold a caller
        /// longer; tests lower it. A rule whose filters pass it over takes no step: a few comparisons, so passing
        /// over costs at most the file's rules once.
        ///
        /// Each rule may need a pass over the URL, so a file of many rules without literal text to tell them apart,
        /// against a long URL, costs rules × URL length. Past this budget matching stops between two rules and the
        /// answer is `none`, with an explanation that says the URL was not matched; the rule being matched when the
        /// budget runs out finishes first (one rule costs at most 4 098 steps per URL byte: see
        /// `tooMuchMatchingWork`). ``AppLinkMatcher/explain(_:appID:domain:)``
        /// looks for near misses within what is left of the same budget.
        package var maximumMatchingSteps = 1 << 26

        /// Creates a configuration.
        /// - Parameters:
        ///   - platform: Which matcher to reproduce.
        ///   - foldsQueryItemNames: Whether `caseSensitive: false` folds query item names.
        ///   - appliesDefaultsToLegacyPaths: Whether `defaults` apply to legacy `paths`.
        public init(
            platform: Platform = .iOS13AndLater,
            foldsQueryItemNames: Bool = true,
            appliesDefaultsToLegacyPaths: Bool = false
        ) {
            self.platform = platform
            self.foldsQueryItemNames = foldsQueryItemNames
            self.appliesDefaultsToLegacyPaths = appliesDefaultsToLegacyPaths
        }
    }

    /// The file this matcher answers for.
    package let association: AppSiteAssociation
    /// How it matches.
    package let configuration: Configuration
    let rulesByDetail: [[CompiledRule]]
    private let detailsByApp: [String: [Int]]
    /// Per rule, the literal text its path must start with: checked on plain bytes before the rule itself, so
    /// most rules of a large file are passed over without touching their compiled patterns.
    private let prefixFilters: [[PrefixFilter]]
    private let prefixPool: [UInt8]
    /// Which (decoded, folded) variants of the path some filter needs.
    private let usedPathVariants: [Bool]
    /// Per detail with many rules, its rules bucketed by literal prefix; `nil` where a scan is as quick.
    private let prefixIndexes: [PrefixIndex?]

    private struct PrefixFilter: Sendable {
        var start: Int
        var count: Int
        var suffixStart: Int
        var suffixCount: Int
        var variant: Int
        var hasPath: Bool
        /// The byte pairs the path must contain (see ``BigramMask``).
        var pairs: BigramMask
    }

    /// Compiles every rule of a file.
    /// - Parameters:
    ///   - association: The file, as read by ``AppSiteAssociation/init(parsing:)``.
    ///   - configuration: How to match.
    public init(_ association: AppSiteAssociation, configuration: Configuration = Configuration()) {
        self.association = association
        self.configuration = configuration
        let applinks = association.applinks ?? AppLinks()
        var rulesByDetail: [[CompiledRule]] = []
        var detailsByApp: [String: [Int]] = [:]
        let legacy = configuration.platform == .iOS9To12
        // One compiled form per variable for the whole file, and one budget (see SubstitutionVariables).
        let variables = SubstitutionVariables(legacy ? [:] : applinks.substitutionVariables)
        for (d, detail) in applinks.details.enumerated() {
            let appIDs: [String] = legacy ? (detail.appID.map { [$0] } ?? []) : detail.modernAppIDs
            for appID in Set(appIDs) { detailsByApp[appID, default: []].append(d) }
            var rules: [CompiledRule] = []
            let mergedDefaults = detail.defaults?.merged(over: applinks.defaults) ?? applinks.defaults
            if !legacy, let components = detail.components {
                for (r, component) in components.enumerated() {
                    rules.append(CompiledRule(
                        component.merged(over: mergedDefaults), detailIndex: d, ruleIndex: r,
                        keyPath: "applinks.details[\(d)].components[\(r)]",
                        source: JSONWriter.text(component.jsonValue, style: .spaced),
                        variables: variables,
                        foldsQueryItemNames: configuration.foldsQueryItemNames, ignoresQueryAndFragment: false))
                }
            } else {
                for (r, path) in (detail.paths ?? []).enumerated() {
                    var component = AppLinkComponent(legacyPath: path)
                    if !legacy && configuration.appliesDefaultsToLegacyPaths {
                        component = component.merged(over: mergedDefaults)
                    }
                    rules.append(CompiledRule(
                        component, detailIndex: d, ruleIndex: r,
                        keyPath: "applinks.details[\(d)].paths[\(r)]",
                        source: JSONWriter.text(.string(path), style: .compact),
                        variables: variables,
                        foldsQueryItemNames: configuration.foldsQueryItemNames,
                        ignoresQueryAndFragment: legacy))
                }
            }
            rulesByDetail.append(rules)
        }
        self.rulesByDetail = rulesByDetail
        self.detailsByApp = detailsByApp
        var pool: [UInt8] = []
        var used = [false, false, false, false]
        self.prefixFilters = rulesByDetail.map { rules in
            rules.map { rule in
                guard let path = rule.path else {
                    return PrefixFilter(
                        start: 0, count: 0, suffixStart: 0, suffixCount: 0, variant: 0, hasPath: false, pairs: BigramMask())
                }
                let variant = (rule.percentEncoded ? 0 : 2) + (rule.caseSensitive ? 0 : 1)
                used[variant] = true
                // A path matching `X/*` through `X` starts with X's prefix, itself a prefix of `X/*`'s. A pattern
                // without a leading `/` is also tried one byte in, so it gets no filter.
                let prefix = path.alsoWithoutLeadingSlash ? [] : path.parent?.literalPrefix ?? path.glob.literalPrefix
                // Only a pattern tried as itself alone (no `X/*` parent) must end with its final literal.
                let suffix = path.parent == nil ? path.glob.literalSuffix : []
                let start = pool.count
                pool.append(contentsOf: prefix)
                pool.append(contentsOf: suffix)
                // A path matched through the `X` of `X/*` holds only X's literals; a path tried one byte in is a
                // substring of the whole path: the pairs of the pattern that can match are all in the path.
                return PrefixFilter(
                    start: start, count: prefix.count, suffixStart: start + prefix.count, suffixCount: suffix.count,
                    variant: variant, hasPath: true, pairs: BigramMask(literalsOf: path.parent ?? path.glob))
            }
        }
        self.prefixPool = pool
        self.usedPathVariants = used
        self.prefixIndexes = prefixFilters.map { filters in
            guard filters.count >= PrefixIndex.minimumRuleCount else { return nil }
            return PrefixIndex(filters.map { filter in
                filter.hasPath ? (filter.variant, pool[filter.start..<(filter.start + filter.count)]) : nil
            })
        }
    }

    /// Reads and compiles a file in one step.
    package init<Bytes: Collection<UInt8>>(parsing bytes: Bytes, configuration: Configuration = Configuration())
    throws(AssociationError) {
        self.init(try AppSiteAssociation(parsing: bytes), configuration: configuration)
    }

    /// Decides whether `url` opens the app `appID`.
    /// - Parameters:
    ///   - url: An absolute `http` or `https` URL, as text (compared byte for byte, never re-encoded).
    ///   - appID: `TEAMID.bundle.identifier`, compared exactly.
    ///   - domain: The domain the file was served from; when given, the URL's host must equal it (compared
    ///     case-insensitively). `nil` skips the host check.
    /// - Returns: The outcome, the deciding rule and a one-sentence explanation; `none` with an explanation that
    ///   says so for a URL not matched because it is longer than 64 KiB or would take more than 2^26 steps (a
    ///   fraction of a second: see <doc:AssociatedDomains>).
    public func match(_ url: String, appID: String, domain: String? = nil) -> AppLinkMatch {
        var steps = 0
        return evaluate(url, appID: appID, domain: domain, collectNearMisses: false, steps: &steps)
    }

    /// Like ``match(_:appID:domain:)``, and for `none` also the nearest rules and where each stopped matching.
    /// - Parameters:
    ///   - url: The URL.
    ///   - appID: The app ID.
    ///   - domain: The domain the file was served from, or `nil`.
    /// - Returns: The outcome with ``AppLinkMatch/nearMisses`` filled for `none`.
    public func explain(_ url: String, appID: String, domain: String? = nil) -> AppLinkMatch {
        var steps = 0
        return evaluate(url, appID: appID, domain: domain, collectNearMisses: true, steps: &steps)
    }

    /// ``match(_:appID:domain:)`` or ``explain(_:appID:domain:)``, adding the steps taken to `steps` (what the tests
    /// hold to the budget).
    func evaluate(_ url: String, appID: String, domain: String?, collectNearMisses: Bool, steps: inout Int) -> AppLinkMatch {
        guard url.utf8.count <= configuration.maximumURLLength else {
            return AppLinkMatch(
                outcome: .none,
                explanation: "the URL is longer than \(configuration.maximumURLLength) bytes; it was not matched")
        }
        guard let parts = URLParts(url) else {
            return AppLinkMatch(outcome: .none, explanation: "not an absolute URL (scheme://host/path)")
        }
        guard parts.scheme == Array("https".utf8) || parts.scheme == Array("http".utf8) else {
            return AppLinkMatch(
                outcome: .none,
                explanation: "scheme \"\(String(decoding: parts.scheme, as: UTF8.self))\" is not http or https")
        }
        if let domain {
            var expected = ASCII.lowered(domain.utf8)
            if expected.last == UInt8(ascii: ".") { expected.removeLast() }
            var host = parts.host
            if host.last == UInt8(ascii: ".") { host.removeLast() }
            guard host == expected else {
                return AppLinkMatch(
                    outcome: .none,
                    explanation: "host \"\(String(decoding: parts.host, as: UTF8.self))\" is not the file's domain \"\(domain)\"")
            }
        }
        guard let detailIndexes = detailsByApp[appID] else {
            let key = configuration.platform == .iOS9To12 ? "appID" : "appIDs/appID"
            return AppLinkMatch(outcome: .none, explanation: "no detail lists \"\(appID)\" in \(key)")
        }
        var context = MatchContext(parts: parts)
        var ruleCount = 0
        for d in detailIndexes { ruleCount += rulesByDetail[d].count }
        let plural = ruleCount == 1 ? "rule" : "rules"
        func decided(_ rule: CompiledRule) -> AppLinkMatch {
            AppLinkMatch(
                outcome: rule.exclude ? .exclude : .match, detailIndex: rule.detailIndex, ruleIndex: rule.ruleIndex,
                keyPath: rule.keyPath,
                explanation: rule.decision)
        }
        switch firstMatchingRule(detailIndexes, &context, &steps) {
        case .found(let rule):
            return decided(rule)
        case .overBudget:
            return AppLinkMatch(
                outcome: .none,
                explanation: "not matched: this URL against the \(ruleCount) \(plural) for \"\(appID)\" needs more than "
                    + "\(configuration.maximumMatchingSteps) matching steps (the matcher's budget); shorten the URL, or "
                    + "give the rules literal text that tells them apart")
        case .none:
            break
        }
        let explanation = "no rule matched (\(ruleCount) \(plural) for \"\(appID)\")"
        guard collectNearMisses else { return AppLinkMatch(outcome: .none, explanation: explanation) }
        // The three best, best first (higher score, then earlier rule); only their text is written, so memory stays
        // that of the URL whatever the number of rules.
        var nearest: [(score: Int, rule: CompiledRule, part: CompiledRule.Part)] = []
        search: for d in detailIndexes {
            for rule in rulesByDetail[d] {
                // Near misses are a hint: they stop where the budget does.
                if steps > configuration.maximumMatchingSteps { break search }
                steps += 1
                guard let part = rule.firstMismatch(&context, &steps) else { return decided(rule) }
                let score = nearMissScore(rule, part, &context)
                guard nearest.count < 3 || score > nearest[nearest.count - 1].score else { continue }
                let at = nearest.firstIndex { $0.score < score } ?? nearest.count
                nearest.insert((score, rule, part), at: at)
                if nearest.count > 3 { nearest.removeLast() }
            }
        }
        return AppLinkMatch(
            outcome: .none, explanation: explanation,
            nearMisses: nearest.map { nearMiss($0.rule, $0.part, &context).text })
    }

    /// What ``firstMatchingRule(_:_:_:)`` found.
    private enum Search {
        case found(CompiledRule)
        case none
        case overBudget
    }

    /// The hot path: prefix filters on plain bytes first, compiled patterns only for the survivors.
    private func firstMatchingRule(_ detailIndexes: [Int], _ context: inout MatchContext, _ steps: inout Int) -> Search {
        var paths: [UInt8] = []
        var offsets = [0, 0, 0, 0, 0]
        for variant in 0..<4 {
            if usedPathVariants[variant] {
                paths += context.path(decoded: variant >= 2, folded: variant & 1 == 1)
            }
            offsets[variant + 1] = paths.count
        }
        let pathPairs: [BigramMask] = paths.withUnsafeBufferPointer { paths in
            (0..<4).map { variant in
                var mask = BigramMask()
                mask.insertPairs(paths, offsets[variant], offsets[variant + 1])
                return mask
            }
        }
        let limit = configuration.maximumMatchingSteps
        return paths.withUnsafeBufferPointer { paths in
            prefixPool.withUnsafeBufferPointer { pool in
                for d in detailIndexes {
                    let rules = rulesByDetail[d]
                    let found: Search = prefixFilters[d].withUnsafeBufferPointer { filters in
                        // The rule if it matches; `.none` to go on with the next one. A rule its filter passes over
                        // costs a few comparisons and no step: only a rule tried counts, and only then is the budget
                        // looked at.
                        @inline(__always)
                        func test(_ i: Int) -> Search {
                            let filter = filters[i]
                            let rule: CompiledRule
                            if filter.hasPath {
                                guard filter.pairs.isSubset(of: pathPairs[filter.variant]) else { return .none }
                                let start = offsets[filter.variant]
                                let end = offsets[filter.variant + 1]
                                guard end - start >= filter.count else { return .none }
                                for k in 0..<filter.count where paths[start + k] != pool[filter.start + k] {
                                    return .none
                                }
                                let tail = end - filter.suffixCount
                                guard tail >= start else { return .none }
                                for k in 0..<filter.suffixCount where paths[tail + k] != pool[filter.suffixStart + k] {
                                    return .none
                                }
                                if steps > limit { return .overBudget }
                                steps += 1
                                rule = rules[i]
                                guard rule.pathMatches(UnsafeBufferPointer(rebasing: paths[start..<end]), &steps) else {
                                    return .none
                                }
                            } else {
                                if steps > limit { return .overBudget }
                                steps += 1
                                rule = rules[i]
                            }
                            if !rule.checksQueryOrFragment || rule.queryOrFragmentMismatch(&context, &steps) == nil {
                                return .found(rule)
                            }
                            return .none
                        }
                        if let index = prefixIndexes[d] {
                            for i in index.candidates(paths, offsets) {
                                let found = test(i)
                                if case .none = found { continue }
                                return found
                            }
                            return .none
                        }
                        for i in 0..<filters.count {
                            let found = test(i)
                            if case .none = found { continue }
                            return found
                        }
                        return .none
                    }
                    if case .none = found { continue }
                    return found
                }
                return .none
            }
        }
    }

    /// How near a rule came: what ``nearMiss(_:_:_:)`` ranks by, without writing its text.
    private func nearMissScore(_ rule: CompiledRule, _ part: CompiledRule.Part, _ context: inout MatchContext) -> Int {
        switch part {
        case .path:
            let path = context.path(decoded: !rule.percentEncoded, folded: !rule.caseSensitive)
            let prefix = rule.path?.glob.literalPrefix ?? []
            var common = 0
            while common < prefix.count, common < path.count, prefix[common] == path[common] { common += 1 }
            return common
        case .query, .queryItem: return 100_000
        case .fragment: return 200_000
        }
    }

    private func nearMiss(_ rule: CompiledRule, _ part: CompiledRule.Part, _ context: inout MatchContext)
    -> (score: Int, text: String) {
        let decoded = !rule.percentEncoded
        let folded = !rule.caseSensitive
        func text(_ bytes: [UInt8]) -> String { JSONWriter.text(.string(String(decoding: bytes, as: UTF8.self)), style: .compact) }
        let head = "\(rule.keyPath) \(rule.source)"
        switch part {
        case .path:
            let path = context.path(decoded: decoded, folded: folded)
            let prefix = rule.path?.glob.literalPrefix ?? []
            var common = 0
            while common < prefix.count, common < path.count, prefix[common] == path[common] { common += 1 }
            if common < prefix.count {
                return (common, "\(head): path \(text(path)) differs at character \(common + 1)")
            }
            return (common, "\(head): path \(text(path)) does not match after \(text(Array(prefix)))")
        case .query:
            return (100_000, "\(head): query \(text(context.query(decoded: decoded, folded: folded))) does not match")
        case .queryItem(let name):
            return (100_000, "\(head): query item \(text(Array(name.utf8))) does not match (a missing item is \"\")")
        case .fragment:
            return (200_000, "\(head): fragment \(text(context.fragment(decoded: decoded, folded: folded))) does not match")
        }
    }
}
