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
    public struct Rule: Sendable, Hashable {
        /// The `"/"` glob, or `nil` for any path.
        public var path: String?
        /// The `"?"` items as (name, value glob), in file order, or `nil` for any query.
        public var query: [QueryItem]?
        /// The `"#"` glob, or `nil` for any fragment.
        public var fragment: String?
        /// `"exclude": true`.
        public var exclude: Bool
        /// Where it is: `[0].relation_extensions.….dynamic_app_link_components[2]`.
        public var keyPath: String

        /// One `"?"` item.
        public struct QueryItem: Sendable, Hashable {
            /// The parameter name.
            public var name: String
            /// The value glob.
            public var value: String

            /// Creates an item.
            /// - Parameters:
            ///   - name: The parameter name.
            ///   - value: The value glob.
            public init(name: String, value: String) {
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
        public init(path: String? = nil, query: [QueryItem]? = nil, fragment: String? = nil, exclude: Bool = false, keyPath: String = "") {
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
        public var summary: String {
            var parts: [String] = []
            if let path { parts.append("\"/\": \(JSONValue.quoted(path))") }
            if let query { parts.append("\"?\": {" + query.map { "\(JSONValue.quoted($0.name)): \(JSONValue.quoted($0.value))" }.joined(separator: ", ") + "}") }
            if let fragment { parts.append("\"#\": \(JSONValue.quoted(fragment))") }
            if exclude { parts.append("\"exclude\": true") }
            return "{" + parts.joined(separator: ", ") + "}"
        }
    }

    /// The `target.package_name`.
    public var packageName: String
    /// The `target.sha256_cert_fingerprints`, as written.
    public var fingerprints: [String]
    /// The dynamic rules Android 15+ applies, or `nil` when there are none (absent, or dropped: see ``droppedReason``).
    public var dynamicRules: [Rule]?
    /// Why every dynamic rule is dropped, when a field is malformed or empty.
    public var droppedReason: String?

    /// The `handle_all_urls` statements for Android apps in an `assetlinks.json`, in file order.
    ///
    /// - Parameter bytes: The file.
    /// - Returns: One value per statement whose `relation` contains `delegate_permission/common.handle_all_urls`
    ///   and whose target is an `android_app`.
    /// - Throws: ``AssociationError`` with code `unreadableFile` when the file is not JSON or not an array.
    public static func statements(in bytes: [UInt8]) throws(AssociationError) -> [AndroidAssetStatement] {
        var parser = JSONParser(bytes: bytes, maximumDepth: 64)
        let document: JSONValue
        do {
            document = try parser.parseDocument()
        } catch {
            throw AssociationError(code: .unreadableFile, message: "assetlinks.json is not JSON: \(error.line):\(error.column): \(error.message)")
        }
        guard case .array(let items) = document else {
            throw AssociationError(code: .unreadableFile, message: "assetlinks.json: expected an array of statements, found \(document.foundDescription)")
        }
        var result: [AndroidAssetStatement] = []
        for (index, item) in items.enumerated() {
            guard case .object(let members) = item,
                  case .array(let relations)? = members.last(where: { $0.key == "relation" })?.value,
                  relations.contains(.string(relation)),
                  case .object(let target)? = members.last(where: { $0.key == "target" })?.value,
                  target.last(where: { $0.key == "namespace" })?.value == .string("android_app"),
                  let packageName = target.last(where: { $0.key == "package_name" })?.value.stringValue
            else { continue }
            var statement = AndroidAssetStatement(packageName: packageName, fingerprints: [], dynamicRules: nil, droppedReason: nil)
            if case .array(let prints)? = target.last(where: { $0.key == "sha256_cert_fingerprints" })?.value {
                statement.fingerprints = prints.compactMap(\.stringValue)
            }
            if case .object(let extensions)? = members.last(where: { $0.key == "relation_extensions" })?.value,
               let handleAll = extensions.last(where: { $0.key == relation })?.value {
                let base = "[\(index)].relation_extensions.\"\(relation)\""
                switch readRules(handleAll, keyPath: base) {
                case .success(let rules): statement.dynamicRules = rules
                case .failure(let reason): statement.droppedReason = reason.message
                }
            }
            result.append(statement)
        }
        return result
    }

    static let relation = "delegate_permission/common.handle_all_urls"

    private struct Dropped: Error { var message: String }

    private static func readRules(_ value: JSONValue, keyPath base: String) -> Result<[Rule]?, Dropped> {
        func drop(_ path: String, _ expected: String, _ found: JSONValue) -> Result<[Rule]?, Dropped> {
            .failure(Dropped(message: "\(path): expected \(expected), found \(found.foundDescription); Android drops every dynamic rule and applies the manifest alone"))
        }
        guard case .object(let members) = value else { return drop(base, "an object", value) }
        guard let components = members.last(where: { $0.key == "dynamic_app_link_components" })?.value else { return .success(nil) }
        let listPath = base + ".dynamic_app_link_components"
        guard case .array(let list) = components, !list.isEmpty else { return drop(listPath, "a non-empty array of rules", components) }
        var rules: [Rule] = []
        for (i, element) in list.enumerated() {
            let path = "\(listPath)[\(i)]"
            guard case .object(let fields) = element else { return drop(path, "a rule object", element) }
            var rule = Rule(keyPath: path)
            for (key, field) in fields {
                switch key {
                case "/", "#":
                    guard case .string(let s) = field, !s.isEmpty else { return drop("\(path).\"\(key)\"", "a non-empty string", field) }
                    if key == "/" { rule.path = s } else { rule.fragment = s }
                case "?":
                    guard case .object(let items) = field, !items.isEmpty else { return drop("\(path).\"?\"", "a non-empty object of parameter globs", field) }
                    var query: [Rule.QueryItem] = []
                    for (name, v) in items {
                        guard case .string(let s) = v else { return drop("\(path).\"?\".\"\(name)\"", "a string", v) }
                        query.append(.init(name: name, value: s))
                    }
                    rule.query = query
                case "exclude":
                    guard case .bool(let b) = field else { return drop("\(path).exclude", "a boolean", field) }
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
