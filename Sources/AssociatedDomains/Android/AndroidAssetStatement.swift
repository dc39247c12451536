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
public struct AndroidAssetStatement: Sendable, Hashable {
    /// One dynamic rule.
    package struct Rule: Sendable, Hashable {
        /// The `"/"` glob, or `nil` for any path.
        package var path: String?
        /// The `"?"` items as (name, value glob), in file order, or `nil` for any query.
        package var query: [QueryItem]?
        /// The `"#"` glob, or `nil` for any fragment.
        package var fragment: String?
        /// `"exclude": true`.
        package var exclude: Bool
        /// Where it is: `[0].relation_extensions["delegate_permission/common.handle_all_urls"].dynamic_app_link_components[2]`.
        package var keyPath: String

        /// One `"?"` item.
        package struct QueryItem: Sendable, Hashable {
            /// The parameter name.
            package var name: String
            /// The value glob.
            package var value: String

            /// Creates an item.
            /// - Parameters:
            ///   - name: The parameter name.
            ///   - value: The value glob.
            package init(name: String, value: String) {
                self.name = name
                self.value = value
            }
        }

        /// Creates a rule.
        /// - Parameters:
        ///   - path: The `"/"` glob.
        ///   - query: The `"?"` items.
        ///   - fragment: The `"#"` glob.
        ///   - exclude: Whether a match is excluded.
        ///   - keyPath: Where it was read.
        package init(path: String? = nil, query: [QueryItem]? = nil, fragment: String? = nil, exclude: Bool = false, keyPath: String = "") {
            self.path = path
            self.query = query
            self.fragment = fragment
            self.exclude = exclude
            self.keyPath = keyPath
        }

        func matches(_ uri: AndroidURI) -> Bool {
            if let path, !DynamicGlob.matches(Array(path.utf16), uri.path) { return false }
            if let fragment {
                guard let actual = uri.fragment, DynamicGlob.matches(Array(fragment.utf16), actual) else { return false }
            }
            if let query {
                for item in query {
                    let values = uri.dynamicRuleParameters[Array(item.name.utf16)] ?? []
                    let glob = Array(item.value.utf16)
                    guard values.contains(where: { DynamicGlob.matches(glob, $0) }) else { return false }
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
        for (i, element) in components.elements.enumerated() {
            let path = JSONKeyPath.appending(i, to: listPath)
            guard element.kind == .object else { return drop(path, element, "a rule object") }
            var rule = Rule(keyPath: path)
            for (key, field) in element.members {
                let fieldPath = JSONKeyPath.appending(key, to: path)
                switch key {
                case "/", "#":
                    guard let s = field.string, !s.isEmpty else { return drop(fieldPath, field, "a non-empty string") }
                    if key == "/" { rule.path = s } else { rule.fragment = s }
                case "?":
                    guard field.kind == .object, field.count > 0 else { return drop(fieldPath, field, "a non-empty object of parameter globs") }
                    var query: [Rule.QueryItem] = []
                    for (name, v) in field.members {
                        guard let s = v.string else { return drop(JSONKeyPath.appending(name, to: fieldPath), v, "a string") }
                        query.append(.init(name: name, value: s))
                    }
                    rule.query = query
                case "exclude":
                    guard let b = field.bool else { return drop(fieldPath, field, "a boolean") }
                    rule.exclude = b
                default:
                    continue  // "comments" and unknown keys are ignored
                }
            }
            rules.append(rule)
        }
        return .success(rules)
    }

    /// The first rule that matches `uri`, with its index; `nil` when none does (the URL is then excluded).
    func firstMatch(_ uri: AndroidURI, steps: inout Int) -> (index: Int, rule: Rule)? {
        guard let dynamicRules else { return nil }
        for (index, rule) in dynamicRules.enumerated() {
            steps += 1
            if rule.matches(uri) { return (index, rule) }
        }
        return nil
    }
}

/// The Dynamic App Links glob: `*` any run of characters (none included), `?` exactly one, everything else itself;
/// UTF-16 code units. The classic two-pointer walk that remembers the last `*`: no recursion, time at most the
/// product of the lengths and linear in practice.
enum DynamicGlob {
    static func matches(_ pattern: [UInt16], _ text: [UInt16]) -> Bool {
        let star = UInt16(UInt8(ascii: "*")), question = UInt16(UInt8(ascii: "?"))
        var p = 0, t = 0
        var lastStar = -1, resume = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == question || pattern[p] == text[t]) && pattern[p] != star {
                p += 1
                t += 1
            } else if p < pattern.count && pattern[p] == star {
                lastStar = p
                resume = t
                p += 1
            } else if lastStar >= 0 {
                p = lastStar + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == star { p += 1 }
        return p == pattern.count
    }
}
