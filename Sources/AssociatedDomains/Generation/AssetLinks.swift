internal import _LinkKitText

/// An `assetlinks.json` (Digital Asset Links, `/.well-known/assetlinks.json`) as Android reads it, or one to write:
/// the statements that let Android apps handle all URLs of a domain (`delegate_permission/common.handle_all_urls`),
/// with their Dynamic App Links rules (Android 15+).
///
/// Read a host's file to give it to ``AndroidLinkMatcher`` and see what Android finds in it:
///
/// ```swift
/// let links = try AssetLinks(parsing: Array(#"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "package_name": "com.example.app.beta"}}]"#.utf8))
/// // links.statements[0].packageName == "com.example.app.beta" (the last value counts)
/// // links.diagnostics[0]: warning: [0].target.package_name: key "package_name" appears more than once ...
/// ```
///
/// Or write one for an app, with the rules that keep paths out of it on Android 15+:
///
/// ```swift
/// let links = try AssetLinks(
///     packageName: "com.example.app", fingerprints: [String(repeating: "AB:", count: 31) + "AB"],
///     rules: [.exclude("/pub/cc"), .include("/pub/acc")])
/// let json = links.json()
/// ```
public struct AssetLinks: Sendable, Hashable {
    /// The `handle_all_urls` statements for Android apps (`target.namespace` `android_app`), in file order; other
    /// statements are left out.
    public var statements: [AndroidAssetStatement]
    /// What reading found: keys repeated in one object (`duplicateKey`, a warning: the last value counts, as
    /// Android's `JSONObject` reads it), dynamic rule sets Android drops whole (`dynamicRulesDropped`, an error) and
    /// dynamic rules whose globs cost more than the matching work budget (`tooMuchMatchingWork`, an error: they are
    /// never matched here).
    /// Empty for a file made with ``init(packageName:fingerprints:rules:)``.
    public var diagnostics: [AssociationDiagnostic]

    /// Reads an `assetlinks.json`.
    ///
    /// - Parameter bytes: The file (a `String`'s `utf8` view will do).
    /// - Throws: ``AssociationError`` with code `unreadableFile` when the file is not JSON, not an array, or over
    ///   1 MiB (which Android's verifier refuses).
    public init<Bytes: Collection<UInt8>>(parsing bytes: Bytes) throws(AssociationError) {
        let document: JSONDocument
        do {
            let bytes = Array(bytes)
            document = try JSONReader.read(bytes, limits: .init(bytes: 1 << 20, depth: 64, values: bytes.count + 1))
        } catch {
            throw AssociationError(code: .unreadableFile, message: "assetlinks.json is not JSON: \(error)")
        }
        (statements, diagnostics) = try AndroidAssetStatement.read(document)
    }

    /// A file of one statement for `packageName`, validated and normalised, to write with ``json()``.
    ///
    /// - Parameters:
    ///   - packageName: The application ID: two or more dot-separated segments, each a letter then letters,
    ///     digits or `_`.
    ///   - fingerprints: SHA-256 fingerprints of the app's signing certificates; lower case and missing colons are
    ///     accepted and normalised.
    ///   - rules: Path rules, first match wins, written as Dynamic App Links rules (Android 15+: a URL no rule
    ///     matches stays out of the app), in the order ``AppLinkRuleSet`` writes them; empty (the default) writes
    ///     none.
    /// - Throws: ``AssociationError`` with ``AssociationError/Code-swift.struct/invalidPackageName``,
    ///   ``AssociationError/Code-swift.struct/invalidFingerprint`` or
    ///   ``AssociationError/Code-swift.struct/invalidRule``.
    public init(packageName: String, fingerprints: [String], rules: [AppLinkRuleSet.Rule] = []) throws(AssociationError) {
        guard AssetLinks.isValidPackageName(packageName) else {
            throw AssociationError(
                code: .invalidPackageName,
                message: "\"\(packageName)\" is not an Android package name: expected segments like com.example.app (each starts with a letter; letters, digits, _)")
        }
        guard !fingerprints.isEmpty else {
            throw AssociationError(code: .invalidFingerprint, message: "no fingerprint given: pass the app signing certificate's SHA-256 fingerprint (keytool -list -v, or Play Console > App integrity)")
        }
        var normalised: [String] = []
        for fingerprint in fingerprints {
            guard let value = AssetLinks.normalisedFingerprint(fingerprint) else {
                throw AssociationError(
                    code: .invalidFingerprint,
                    message: "\"\(fingerprint)\" is not a SHA-256 fingerprint: expected 32 hex byte pairs such as 14:6D:E9:...; a SHA-1 fingerprint (20 pairs) does not work")
            }
            if !normalised.contains(value) { normalised.append(value) }
        }
        let dynamicRules = rules.isEmpty ? nil : try AppLinkRuleSet.androidDynamicRules(for: rules)
        statements = [AndroidAssetStatement(
            packageName: packageName, fingerprints: normalised, dynamicRules: dynamicRules, droppedReason: nil)]
        diagnostics = []
    }

    /// Normalises a fingerprint to 32 upper-case hex pairs separated by `:`, or `nil` when it is not one (hex with or
    /// without `:` separators, any case).
    package static func normalisedFingerprint(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var digits: [UInt8] = []
        let colons = bytes.contains(UInt8(ascii: ":"))
        for (i, b) in bytes.enumerated() {
            if b == UInt8(ascii: ":") {
                // Colons must separate pairs exactly.
                guard colons, i % 3 == 2 else { return nil }
                continue
            }
            if colons && i % 3 == 2 { return nil }
            guard ASCII.hexValue(b) != nil else { return nil }
            digits.append(b >= 0x61 ? b - 0x20 : b)
        }
        guard digits.count == 64 else { return nil }
        var out = ""
        for pair in 0..<32 {
            if pair > 0 { out += ":" }
            out += String(decoding: digits[(pair * 2)..<(pair * 2 + 2)], as: UTF8.self)
        }
        return out
    }

    static func isValidPackageName(_ name: String) -> Bool {
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2 else { return false }
        for segment in segments {
            guard let first = segment.utf8.first, (first | 0x20) >= 0x61, (first | 0x20) <= 0x7A else { return false }
            for b in segment.utf8 {
                let ok = ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
                if !ok { return false }
            }
        }
        return true
    }

    /// The file's text (two-space indented JSON): every statement, its dynamic rules under `relation_extensions`.
    ///
    /// - Returns: The text, without a trailing newline.
    public func json() -> String {
        let written: [JSONValue] = statements.map { statement in
            var members: [(key: String, value: JSONValue)] = [
                ("relation", .array([.string(AndroidAssetStatement.relation)])),
                ("target", .object([
                    ("namespace", .string("android_app")),
                    ("package_name", .string(statement.packageName)),
                    ("sha256_cert_fingerprints", .array(statement.fingerprints.map(JSONValue.string))),
                ])),
            ]
            if let dynamicRules = statement.dynamicRules {
                let components: [JSONValue] = dynamicRules.map { rule in
                    var members: [(key: String, value: JSONValue)] = []
                    if let path = rule.path { members.append(("/", .string(path))) }
                    if let query = rule.query { members.append(("?", .object(query.map { ($0.name, .string($0.value)) }))) }
                    if let fragment = rule.fragment { members.append(("#", .string(fragment))) }
                    if rule.exclude { members.append(("exclude", .bool(true))) }
                    return .object(members)
                }
                members.append(("relation_extensions", .object([
                    (AndroidAssetStatement.relation, .object([("dynamic_app_link_components", .array(components))])),
                ])))
            }
            return .object(members)
        }
        return JSONWriter.text(.array(written), style: .indented)
    }
}
