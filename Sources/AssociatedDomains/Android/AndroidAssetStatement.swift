internal import _LinkKitText

/// One `delegate_permission/common.handle_all_urls` statement of an `assetlinks.json` for an Android app, with its
/// Dynamic App Links rules (Android 15+): `relation_extensions` → `"delegate_permission/common.handle_all_urls"` →
/// `dynamic_app_link_components`.
///
/// Rules as this package applies them (from Google's documentation and AOSP's `StatementService`, which hands the
/// rules to the system as `UriRelativeFilterGroup`s):
/// - rules are tried in order and the first that matches decides; `"exclude": true` keeps the URL out of the app;
///   a URL no rule matches is excluded;
/// - `"/"` matches the decoded path, `"#"` the decoded fragment (a URL without one never matches a `"#"` rule),
///   `"?"` is a dictionary: each named parameter must be present with a value that matches; order and extra
///   parameters do not matter; `*` is any run of characters, `?` exactly one, `?*` one or more;
/// - one malformed or empty field (not an array, an empty array, a rule that is not an object, a `"/"` or `"#"` that
///   is not a non-empty string, a `"?"` that is not a non-empty object of strings, an `"exclude"` that is not a
///   boolean) drops *every* dynamic rule: the manifest alone applies;
/// - dynamic rules only narrow: a URL the manifest's filters do not take never opens the app; Android 14 and
///   earlier ignore them.
///
/// A glob costs about one pass over the part of the URL it reads, plus its work (see `DynamicGlob`), budgeted per
/// statement as an AASA's patterns are per file: a rule with a glob past the budget is never matched here, and the
/// reader reports it (`tooMuchMatchingWork`).
public struct AndroidAssetStatement: Sendable, Hashable {
    /// One dynamic rule.
    package struct Rule: Sendable, Hashable {
        /// The `"/"` glob, or `nil` for any path.
        let pathGlob: DynamicGlob?
        /// The `"?"` items as (name, value glob), in file order, or `nil` for any query.
        package let query: [QueryItem]?
        /// The `"#"` glob, or `nil` for any fragment.
        let fragmentGlob: DynamicGlob?
        /// `"exclude": true`.
        package let exclude: Bool
        /// Where it is: `[0].relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components[2]`.
        package let keyPath: String

        /// The `"/"` glob as written, or `nil` for any path.
        package var path: String? { pathGlob?.text }
        /// The `"#"` glob as written, or `nil` for any fragment.
        package var fragment: String? { fragmentGlob?.text }

        /// One `"?"` item.
        package struct QueryItem: Sendable, Hashable {
            /// The parameter name.
            package let name: String
            /// The value glob.
            let valueGlob: DynamicGlob
            /// The name as the URL's parameters are looked up by.
            let nameUnits: [UInt16]

            /// The value glob as written.
            package var value: String { valueGlob.text }

            /// Creates an item.
            /// - Parameters:
            ///   - name: The parameter name.
            ///   - value: The value glob.
            ///   - budget: The work budget of the file it is read from.
            init(name: String, value: String, budget: SubstitutionVariables = SubstitutionVariables([:])) {
                self.name = name
                self.valueGlob = DynamicGlob(value, budget: budget)
                self.nameUnits = Array(name.utf16)
            }
        }

        /// Creates a rule.
        /// - Parameters:
        ///   - path: The `"/"` glob.
        ///   - query: The `"?"` items.
        ///   - fragment: The `"#"` glob.
        ///   - exclude: Whether a match is excluded.
        ///   - keyPath: Where it was read.
        ///   - budget: The work budget of the file it is read from, charged by each glob.
        init(
            path: String? = nil, query: [QueryItem]? = nil, fragment: String? = nil, exclude: Bool = false, keyPath: String = "",
            budget: SubstitutionVariables = SubstitutionVariables([:])
        ) {
            self.pathGlob = path.map { DynamicGlob($0, budget: budget) }
            self.query = query
            self.fragmentGlob = fragment.map { DynamicGlob($0, budget: budget) }
            self.exclude = exclude
            self.keyPath = keyPath
        }

        /// A glob of the rule costs more than the work budget allows: the rule is never matched here.
        var exceedsWorkBudget: Bool {
            pathGlob?.exceedsWorkBudget == true || fragmentGlob?.exceedsWorkBudget == true
                || query?.contains { $0.valueGlob.exceedsWorkBudget } == true
        }

        /// Whether the rule matches `uri`, whose path and fragment are given as the globs read them
        /// (``DynamicGlob/encoded(_:)``), adding the work done to `steps`.
        func matches(
            _ uri: AndroidURI, path encodedPath: [UInt8], fragment encodedFragment: [UInt8]?, steps: inout Int
        ) -> Bool {
            if let pathGlob, !pathGlob.matches(encodedPath, steps: &steps) { return false }
            if let fragmentGlob {
                guard let encodedFragment, fragmentGlob.matches(encodedFragment, steps: &steps) else { return false }
            }
            if let query {
                for item in query {
                    let values = uri.dynamicRuleParameters[item.nameUnits] ?? []
                    guard values.contains(where: { item.valueGlob.matches($0, steps: &steps) }) else { return false }
                }
            }
            return true
        }

        /// `{"/": "/pub/cc/*", "exclude": true}` for explanations.
        package var summary: String {
            var parts: [String] = []
            let quoted = JSONWriter.quotedForMessage
            if let path { parts.append("\"/\": \(quoted(path))") }
            if let query { parts.append("\"?\": {" + query.map { "\(quoted($0.name)): \(quoted($0.value))" }.joined(separator: ", ") + "}") }
            if let fragment { parts.append("\"#\": \(quoted(fragment))") }
            if exclude { parts.append("\"exclude\": true") }
            return "{" + parts.joined(separator: ", ") + "}"
        }
    }

    /// The `target.package_name`.
    public var packageName: String
    /// The `target.sha256_cert_fingerprints`, as written.
    public var fingerprints: [String]
    /// The dynamic rules Android 15+ applies, or `nil` when there are none (absent, or dropped: see ``droppedReason``).
    package var dynamicRules: [Rule]?
    /// Why every dynamic rule is dropped, when a field is malformed or empty.
    package var droppedReason: String?

    /// The statements of an `assetlinks.json` (``AssetLinks/init(parsing:)`` without its diagnostics).
    package static func statements(in bytes: [UInt8]) throws(AssociationError) -> [AndroidAssetStatement] {
        try AssetLinks(parsing: bytes).statements
    }

    /// The `handle_all_urls` statements for Android apps of `document`, in file order, and what reading them
    /// found: repeated keys (the last value counts, as Android's `JSONObject` reads it) and dropped dynamic rules.
    static func read(_ document: JSONDocument) throws(AssociationError) -> (statements: [AndroidAssetStatement], diagnostics: [AssociationDiagnostic]) {
        var diagnostics: [AssociationDiagnostic] = document.duplicateKeys.compactMap { path in
            guard case .key(let key)? = path.components.last else { return nil }
            return AssociationDiagnostic(
                severity: .warning, code: .duplicateKey, keyPath: path.description,
                message: "key \(JSONWriter.quotedForMessage(key)) appears more than once in this object; the last value counts, as Android's JSONObject reads it: remove the others")
        }
        let root = document.root
        guard root.kind == .array else {
            throw AssociationError(code: .unreadableFile, message: "assetlinks.json: expected an array of statements, found \(root.summary)")
        }
        var result: [AndroidAssetStatement] = []
        for (index, item) in root.elements.enumerated() {
            guard let relations = item.member("relation"), relations.elements.contains(where: { $0.string == relation }),
                  let target = item.member("target"), target.kind == .object,
                  target.member("namespace")?.string == "android_app",
                  let packageName = target.member("package_name")?.string
            else { continue }
            var statement = AndroidAssetStatement(packageName: packageName, fingerprints: [], dynamicRules: nil, droppedReason: nil)
            if let prints = target.member("sha256_cert_fingerprints") {
                statement.fingerprints = prints.elements.compactMap(\.string)
            }
            if let extensions = item.member("relation_extensions"), let handleAll = extensions.member(relation) {
                let base = JSONKeyPath([.index(index), .key("relation_extensions"), .key(relation)]).description
                switch readRules(handleAll, keyPath: base) {
                case .success(let rules): statement.dynamicRules = rules
                case .failure(let dropped):
                    statement.droppedReason = "\(dropped.keyPath): \(dropped.message)"
                    diagnostics.append(AssociationDiagnostic(
                        severity: .error, code: .dynamicRulesDropped, keyPath: dropped.keyPath, message: dropped.message))
                }
            }
            result.append(statement)
        }
        if let refused = workBudgetDiagnostic(result) { diagnostics.append(refused) }
        return (result, diagnostics)
    }

    static let relation = "delegate_permission/common.handle_all_urls"

    private struct Dropped: Error {
        var keyPath: String
        var message: String
    }

    private static func readRules(_ value: JSONNode, keyPath base: String) -> Result<[Rule]?, Dropped> {
        func drop(_ path: String, _ found: JSONNode, _ expected: String) -> Result<[Rule]?, Dropped> {
            .failure(Dropped(keyPath: path, message: "expected \(expected), found \(found.summary); Android drops every dynamic rule and applies the manifest alone"))
        }
        guard value.kind == .object else { return drop(base, value, "an object") }
        guard let components = value.member("dynamic_app_link_components") else { return .success(nil) }
        let listPath = JSONKeyPath.appending("dynamic_app_link_components", to: base)
        guard components.kind == .array, components.count > 0 else { return drop(listPath, components, "a non-empty array of rules") }
        var rules: [Rule] = []
        // The rule set's work budget, charged by each glob as it is compiled.
        let budget = SubstitutionVariables([:])
        for (i, element) in components.elements.enumerated() {
            let rulePath = JSONKeyPath.appending(i, to: listPath)
            guard element.kind == .object else { return drop(rulePath, element, "a rule object") }
            var path: String?, fragment: String?, query: [Rule.QueryItem]?, exclude = false
            for (key, field) in element.members {
                let fieldPath = JSONKeyPath.appending(key, to: rulePath)
                switch key {
                case "/", "#":
                    guard let s = field.string, !s.isEmpty else { return drop(fieldPath, field, "a non-empty string") }
                    if key == "/" { path = s } else { fragment = s }
                case "?":
                    guard field.kind == .object, field.count > 0 else { return drop(fieldPath, field, "a non-empty object of parameter globs") }
                    var items: [Rule.QueryItem] = []
                    for (name, v) in field.members {
                        guard let s = v.string else { return drop(JSONKeyPath.appending(name, to: fieldPath), v, "a string") }
                        items.append(.init(name: name, value: s, budget: budget))
                    }
                    query = items
                case "exclude":
                    guard let b = field.bool else { return drop(fieldPath, field, "a boolean") }
                    exclude = b
                default:
                    continue  // "comments" and unknown keys are ignored
                }
            }
            rules.append(Rule(
                path: path, query: query, fragment: fragment, exclude: exclude, keyPath: rulePath, budget: budget))
        }
        return .success(rules)
    }

    /// What trying the dynamic rules on one URL found.
    struct Decision {
        /// The first rule that matches, with its index; `nil` when none does (the URL is then excluded).
        var match: (index: Int, rule: Rule)?
        /// Matching stopped between two rules, past the matcher's budget: the later rules were not tried.
        var stoppedForBudget = false
        /// The first rule passed over because one of its globs is refused for the work budget.
        var firstRefused: Int?
    }

    /// The first rule that matches `uri`, in at most `maximumSteps` steps (counted from `steps`) plus the rule being
    /// matched when they run out, adding the work done to `steps`: one step per rule tried, and what its globs read.
    func firstMatch(_ uri: AndroidURI, maximumSteps: Int, steps: inout Int) -> Decision {
        var decision = Decision()
        guard let dynamicRules else { return decision }
        let limit = steps + maximumSteps
        // Read by every rule, written once.
        let path = DynamicGlob.encoded(uri.path)
        let fragment = uri.fragment.map(DynamicGlob.encoded)
        steps += path.count + (fragment?.count ?? 0)
        for (index, rule) in dynamicRules.enumerated() {
            guard steps <= limit else {
                decision.stoppedForBudget = true
                return decision
            }
            steps += 1
            if rule.exceedsWorkBudget {
                if decision.firstRefused == nil { decision.firstRefused = index }
                continue
            }
            if rule.matches(uri, path: path, fragment: fragment, steps: &steps) {
                decision.match = (index, rule)
                return decision
            }
        }
        return decision
    }

    /// One finding for the rules of `statements` refused for the work budget: the first and a count, so the report
    /// stays as small as the file.
    static func workBudgetDiagnostic(_ statements: [AndroidAssetStatement]) -> AssociationDiagnostic? {
        let refused = statements.flatMap { $0.dynamicRules ?? [] }.filter(\.exceedsWorkBudget)
        guard let first = refused.first else { return nil }
        let others = refused.count - 1
        let more = others == 0 ? "" : " (and \(others) later \(others == 1 ? "rule" : "rules"))"
        return AssociationDiagnostic(
            severity: .error, code: .tooMuchMatchingWork, keyPath: first.keyPath,
            message: "expected globs that cost at most \(SubstitutionVariables.maximumPatternWork) steps per URL character each and \(SubstitutionVariables.maximumMatchingWork) for the file (the limits that keep matching time proportional to the URL), found more from this rule on; this rule\(more) is never matched here, so answers may differ from a device's: shorten the runs that mix ? with text between two *")
    }
}
