internal import _LinkKitText

/// A small rule set (app IDs, ordered include/exclude path patterns) from which the generators write an
/// `apple-app-site-association` file and the Android intent filter; ``AssetLinks`` writes the same rules into
/// `assetlinks.json`.
///
/// ```swift
/// let rules = AppLinkRuleSet.responsys(appIDs: ["ABCDE12345.com.example.app"])  // /pub/acc in, /pub/cc out
/// let aasa = try rules.appSiteAssociation(format: .both)
/// ```
///
/// iOS applies the first rule that matches, so a narrower rule written after a broader one with the other decision
/// would never apply (`include /products/*` then `exclude /products/internal/*` opens the app for internal pages).
/// The generators write the rules in the order given, except that such a narrower rule is moved just before the
/// first broader rule of the other decision that hides it (it matches every URL the rule matches), which is what
/// its author meant. Nothing else moves, so every URL that rule does not match is decided as written. A rule hidden
/// by an earlier rule of the same decision stays where it is, and ``AppSiteAssociation/diagnostics``
/// reports it.
public struct AppLinkRuleSet: Sendable, Hashable {
    /// One path rule: a glob (`*`, `?`, `$(name)`) that opens the app, or keeps the URL on the web.
    public struct Rule: Sendable, Hashable {
        /// The path glob, e.g. `/pub/acc` or `/products/*`.
        public var path: String
        /// `true` keeps matching URLs on the web.
        public var exclude: Bool
        /// Written as the component's `comment` (components form only).
        public var comment: String?

        package init(path: String, exclude: Bool, comment: String? = nil) {
            self.path = path
            self.exclude = exclude
            self.comment = comment
        }

        /// A rule that opens the app for `path`.
        /// - Parameters:
        ///   - path: The path glob.
        ///   - comment: An optional comment.
        /// - Returns: The rule.
        public static func include(_ path: String, comment: String? = nil) -> Rule {
            Rule(path: path, exclude: false, comment: comment)
        }

        /// A rule that keeps `path` on the web.
        /// - Parameters:
        ///   - path: The path glob.
        ///   - comment: An optional comment.
        /// - Returns: The rule.
        public static func exclude(_ path: String, comment: String? = nil) -> Rule {
            Rule(path: path, exclude: true, comment: comment)
        }
    }

    /// Which AASA form to write.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// iOS 13+ only: one detail with `appIDs` and `components`.
        case components
        /// iOS 9+ form: `"apps": []`, one detail per app with `appID` and `paths` (`"NOT "` for exclusions).
        case legacy
        /// Both, for every iOS version: one detail per app carrying `appID`, `appIDs`, `components` and `paths`.
        case both
    }

    /// The apps, `TEAMID.bundle.identifier`.
    public var appIDs: [String]
    /// The rules, as given, first match wins (see the moves above).
    public var rules: [Rule]

    /// Creates a rule set.
    /// - Parameters:
    ///   - appIDs: The apps.
    ///   - rules: The rules, first match wins.
    public init(appIDs: [String], rules: [Rule]) {
        self.appIDs = appIDs
        self.rules = rules
    }

    /// The Responsys preset: app links (`/pub/acc`) open the app, web links (`/pub/cc`) stay on the web.
    /// - Parameters:
    ///   - appIDs: The apps.
    ///   - appLinkPath: The app-link path; `/pub/acc` unless the account uses global routing.
    ///   - webLinkPath: The web-link path; `/pub/cc` unless the account uses global routing.
    /// - Returns: The rule set: exclude the web-link path, then include the app-link path.
    public static func responsys(
        appIDs: [String], appLinkPath: String = "/pub/acc", webLinkPath: String = "/pub/cc"
    ) -> AppLinkRuleSet {
        AppLinkRuleSet(appIDs: appIDs, rules: [
            .exclude(webLinkPath, comment: "Responsys web links open the browser"),
            .include(appLinkPath, comment: "Responsys app links open the app"),
        ])
    }

    /// Checks the app IDs and rules, naming the first bad input.
    package func validate() throws(AssociationError) {
        guard !appIDs.isEmpty else {
            throw AssociationError(code: .invalidAppID, message: "no app ID given: pass at least one TEAMID.bundle.identifier")
        }
        for appID in appIDs where !AppIDFormat.isValid(appID) {
            throw AssociationError(
                code: .invalidAppID,
                message: "\"\(appID)\" is not an app ID: expected TEAMID.bundle.identifier with a 10-character team ID (A–Z, 0–9)")
        }
        try Self.validate(rules: rules)
    }

    /// Checks the rules alone (Android's files name no app ID), naming the first bad one.
    static func validate(rules: [Rule]) throws(AssociationError) {
        guard !rules.isEmpty else {
            throw AssociationError(code: .invalidRule, message: "no rule given: add at least one include or exclude path")
        }
        for rule in rules {
            guard !rule.path.isEmpty else {
                throw AssociationError(code: .invalidRule, message: "empty path rule: give a path such as /products/*")
            }
            guard !rule.path.hasPrefix("NOT ") else {
                throw AssociationError(
                    code: .invalidRule,
                    message: "path \"\(rule.path)\" starts with \"NOT \": use an exclude rule with the bare path instead")
            }
            // The legacy `paths` form must not read as a mistyped exclusion ("NOT  x", "not/x"): iOS 9–12 would
            // not take it as the rule written, and `check` reports it as an error.
            let legacy = rule.exclude ? "NOT " + rule.path : rule.path
            if legacy.lowercased().hasPrefix("not"), !legacy.hasPrefix("NOT ") || legacy.hasPrefix("NOT  "),
               let next = legacy.dropFirst(3).first, next == "/" || next == " " {
                throw AssociationError(
                    code: .invalidRule,
                    message: "path \"\(rule.path)\" would be written as the legacy path \"\(legacy)\", which reads as a mistyped \"NOT \" exclusion; start the path with /")
            }
        }
    }

    /// The rules in the order the generators write them: ``rules``, with each rule that an earlier rule of the
    /// other decision would hide (it matches every URL the rule matches, as `check` reports with `shadowedRule`)
    /// moved just before the first rule that hides it.
    ///
    /// `[.include("/products/*"), .exclude("/products/internal/*")]` is written
    /// `[.exclude("/products/internal/*"), .include("/products/*")]`.
    ///
    /// A rule hidden by an earlier rule of the same decision stays where it is (it changes nothing either way, and
    /// `check` reports it). The covering test is the one `check` uses: it may miss a covering, never invent one.
    package var orderedRules: [Rule] { Self.ordered(rules) }

    /// ``orderedRules`` of `rules`.
    static func ordered(_ rules: [Rule]) -> [Rule] {
        var placed: [(rule: Rule, compiled: CompiledRule)] = []
        for (index, rule) in rules.enumerated() {
            let compiled = CompiledRule(
                AppLinkComponent(path: rule.path, exclude: rule.exclude), detailIndex: 0, ruleIndex: index, keyPath: "",
                source: "", variables: [:], foldsQueryItemNames: true, ignoresQueryAndFragment: false)
            let covering = placed.firstIndex {
                RuleSubsumption.mayCover($0.compiled, compiled) && RuleSubsumption.covers($0.compiled, compiled)
            }
            if let covering, placed[covering].rule.exclude != rule.exclude {
                placed.insert((rule, compiled), at: covering)
            } else {
                placed.append((rule, compiled))
            }
        }
        return placed.map(\.rule)
    }

    /// The rule set as an association file model, its rules in the order of ``orderedRules``.
    package func association(format: Format = .both) throws(AssociationError) -> AppSiteAssociation {
        try validate()
        let rules = orderedRules
        let components = rules.map { AppLinkComponent(path: $0.path, exclude: $0.exclude ? true : nil, comment: $0.comment) }
        let paths = rules.map { $0.exclude ? "NOT " + $0.path : $0.path }
        switch format {
        case .components:
            return AppSiteAssociation(applinks: AppLinks(details: [AppLinkDetail(appIDs: appIDs, components: components)]))
        case .legacy:
            return AppSiteAssociation(applinks: AppLinks(
                apps: [], details: appIDs.map { AppLinkDetail(appID: $0, paths: paths) }))
        case .both:
            return AppSiteAssociation(applinks: AppLinks(
                apps: [],
                details: appIDs.map { AppLinkDetail(appID: $0, appIDs: [$0], components: components, paths: paths) }))
        }
    }

    /// The `apple-app-site-association` file text (two-space indented JSON, stable key order).
    /// - Parameter format: Which form; ``Format-swift.enum/both`` works on every iOS version.
    /// - Returns: The file's text, without a trailing newline.
    /// - Throws: ``AssociationError`` naming the first bad app ID or rule.
    public func appSiteAssociation(format: Format = .both) throws(AssociationError) -> String {
        JSONWriter.text(try association(format: format).jsonValue, style: .indented)
    }
}

extension AppSiteAssociation {
    /// The file as JSON, keys in the order Apple documents them.
    var jsonValue: JSONValue {
        var top: [(key: String, value: JSONValue)] = []
        if let applinks {
            var members: [(key: String, value: JSONValue)] = []
            if let apps = applinks.apps { members.append(("apps", .array(apps.map(JSONValue.string)))) }
            if let defaults = applinks.defaults { members.append(("defaults", defaults.jsonValue)) }
            if !applinks.substitutionVariables.isEmpty {
                members.append(("substitutionVariables", .object(applinks.substitutionVariables.sorted { $0.key < $1.key }
                    .map { ($0.key, .array($0.value.map(JSONValue.string))) })))
            }
            members.append(("details", .array(applinks.details.map { detail in
                var d: [(key: String, value: JSONValue)] = []
                if let appID = detail.appID { d.append(("appID", .string(appID))) }
                if let appIDs = detail.appIDs { d.append(("appIDs", .array(appIDs.map(JSONValue.string)))) }
                if let defaults = detail.defaults { d.append(("defaults", defaults.jsonValue)) }
                if let components = detail.components { d.append(("components", .array(components.map(\.jsonValue)))) }
                if let paths = detail.paths { d.append(("paths", .array(paths.map(JSONValue.string)))) }
                return .object(d)
            })))
            top.append(("applinks", .object(members)))
        }
        for (key, list) in [("webcredentials", webcredentials), ("appclips", appclips),
                            ("activitycontinuation", activitycontinuation)] {
            if let list { top.append((key, .object([("apps", .array(list.apps.map(JSONValue.string)))]))) }
        }
        return .object(top)
    }
}
