internal import _LinkKitText

/// A Digital Asset Links statement list (`/.well-known/assetlinks.json`) letting one Android app handle all URLs
/// of a domain (`delegate_permission/common.handle_all_urls`).
///
/// ```swift
/// let links = try AssetLinks(packageName: "com.example.app", fingerprints: ["14:6D:E9:..."])
/// let json = links.json()
/// ```
public struct AssetLinks: Sendable, Hashable {
    /// The Android application ID, e.g. `com.example.app`.
    public var packageName: String
    /// SHA-256 signing-certificate fingerprints, upper-case hex pairs separated by `:` (32 pairs each).
    public var fingerprints: [String]

    /// Validates and normalises the inputs.
    /// - Parameters:
    ///   - packageName: The application ID: two or more dot-separated segments, each a letter then letters,
    ///     digits or `_`.
    ///   - fingerprints: SHA-256 fingerprints; lower case and missing colons are accepted and normalised.
    /// - Throws: ``AssociationError`` with ``AssociationError/Code-swift.struct/invalidPackageName`` or
    ///   ``AssociationError/Code-swift.struct/invalidFingerprint``.
    public init(packageName: String, fingerprints: [String]) throws(AssociationError) {
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
        self.packageName = packageName
        self.fingerprints = normalised
    }

    /// Normalises a fingerprint to 32 upper-case hex pairs separated by `:`, or `nil` when it is not one.
    /// - Parameter text: Hex with or without `:` separators, any case.
    /// - Returns: The normalised fingerprint.
    public static func normalisedFingerprint(_ text: String) -> String? {
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

    /// The `assetlinks.json` text (two-space indented JSON).
    /// - Parameter dynamicRules: Dynamic App Links rules (Android 15+) to write under `relation_extensions`, e.g.
    ///   ``AppLinkRuleSet/androidDynamicRules()``; `nil` (the default) writes none.
    /// - Returns: The file's text, without a trailing newline.
    public func json(dynamicRules: [AndroidAssetStatement.Rule]? = nil) -> String {
        var statement: [(key: String, value: JSONValue)] = [
            ("relation", .array([.string(AndroidAssetStatement.relation)])),
            ("target", .object([
                ("namespace", .string("android_app")),
                ("package_name", .string(packageName)),
                ("sha256_cert_fingerprints", .array(fingerprints.map(JSONValue.string))),
            ])),
        ]
        if let dynamicRules {
            let components: [JSONValue] = dynamicRules.map { rule in
                var members: [(key: String, value: JSONValue)] = []
                if let path = rule.path { members.append(("/", .string(path))) }
                if let query = rule.query { members.append(("?", .object(query.map { ($0.name, .string($0.value)) }))) }
                if let fragment = rule.fragment { members.append(("#", .string(fragment))) }
                if rule.exclude { members.append(("exclude", .bool(true))) }
                return .object(members)
            }
            statement.append(("relation_extensions", .object([
                (AndroidAssetStatement.relation, .object([("dynamic_app_link_components", .array(components))])),
            ])))
        }
        return JSONWriter.text(.array([.object(statement)]), style: .indented)
    }
}
