internal import _LinkKitText

extension AppLinkRuleSet {
    /// The form of the generated `<intent-filter>`.
    public enum AndroidFilterForm: String, Sendable, Hashable, CaseIterable {
        /// Every Android version: `<data>` path attributes for the include rules. Exclusions cannot be written in
        /// such a filter: they take effect on Android 15+ through the dynamic rules of `assetlinks.json`
        /// (``AssetLinks/init(packageName:fingerprints:rules:)``), and a comment says what Android 14 and earlier
        /// open instead.
        case compatible
        /// Android 15+ only (an app with `minSdk` 35): `<uri-relative-filter-group>`s in rule order, the
        /// exclusions as `android:allow="false"` groups. Older Android ignores the groups and would take every path
        /// of the host, so never ship this form to them.
        case android15
    }

    /// The Android `<intent-filter>` (with `android:autoVerify="true"`) whose `<data>` lines accept the
    /// include rules on `host`.
    ///
    /// A glob without wildcards becomes `android:path` (and the same path with a trailing `/`, which iOS also
    /// accepts); `X/*` becomes `android:path="X"` plus `android:pathPrefix="X/"`; any other glob becomes
    /// `android:pathPattern` (`*` → `.*`, `?` and `$(name)` → `.` / `.*`), whose `.*` does not backtrack (so a `*`
    /// in the middle is narrower on Android: `linux-host android match` shows it).
    /// - Parameters:
    ///   - host: The domain, e.g. `news.example.com`.
    ///   - form: ``AndroidFilterForm/compatible`` (default) or ``AndroidFilterForm/android15``.
    /// - Returns: The XML snippet, lines joined with `\n`.
    /// - Throws: ``AssociationError`` when the host or a rule is unusable (app IDs play no part on Android).
    public func androidIntentFilter(host: String, form: AndroidFilterForm = .compatible) throws(AssociationError) -> String {
        try Self.validate(rules: rules)
        guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == " " || $0 == ":" }) else {
            throw AssociationError(code: .invalidDomain, message: "\"\(host)\" is not a host name: give e.g. news.example.com")
        }
        var lines = [
            "<intent-filter android:autoVerify=\"true\">",
            "    <action android:name=\"android.intent.action.VIEW\" />",
            "    <category android:name=\"android.intent.category.DEFAULT\" />",
            "    <category android:name=\"android.intent.category.BROWSABLE\" />",
            "    <data android:scheme=\"https\" />",
            "    <data android:host=\"\(AppLinkRuleSet.attributeText(host))\" />",
        ]
        switch form {
        case .compatible:
            for rule in rules {
                if rule.exclude {
                    let text = rule.path.replacingDoubleHyphens
                    lines.append("    <!-- excluded: \(text) stays out of the app on Android 15+ through assetlinks.json dynamic_app_link_components; Android 14 and earlier open it in the app when a path below takes it -->")
                    continue
                }
                for (attribute, value) in AppLinkRuleSet.androidData(for: rule.path) {
                    lines.append("    <data android:\(attribute)=\"\(AppLinkRuleSet.attributeText(value))\" />")
                }
            }
        case .android15:
            lines.append("    <!-- Android 15+: the first group that matches decides; a path no group matches is not taken -->")
            for rule in orderedRules {
                for (attribute, value) in AppLinkRuleSet.androidData(for: rule.path) {
                    lines.append("    <uri-relative-filter-group android:allow=\"\(!rule.exclude)\">")
                    lines.append("        <data android:\(attribute)=\"\(AppLinkRuleSet.attributeText(value))\" />")
                    lines.append("    </uri-relative-filter-group>")
                }
            }
        }
        lines.append("</intent-filter>")
        return lines.joined(separator: "\n")
    }

    /// The Dynamic App Links rules (`dynamic_app_link_components`, Android 15+) for the rules in the order of
    /// ``orderedRules``: the first that matches decides and a URL none matches stays out of the app, as in the
    /// AASA. The glob syntax is the same (`*`, `?`; a `$(name)` becomes `*`); `X/*` also gets a rule for `X`, and
    /// a path without wildcards one for its trailing-slash form, because iOS matches those.
    package func androidDynamicRules() throws(AssociationError) -> [AndroidAssetStatement.Rule] {
        try Self.androidDynamicRules(for: rules)
    }

    /// ``androidDynamicRules()`` of `rules`, checked alone.
    static func androidDynamicRules(for rules: [Rule]) throws(AssociationError) -> [AndroidAssetStatement.Rule] {
        try validate(rules: rules)
        var out: [AndroidAssetStatement.Rule] = []
        // Where the rules sit in the file ``AssetLinks`` writes, as reading it back reports them.
        let list = JSONKeyPath([.index(0), .key("relation_extensions"), .key(AndroidAssetStatement.relation), .key("dynamic_app_link_components")])
        for rule in ordered(rules) {
            // `$(name)` stands for one of several values: any run of characters is the closest Android glob.
            var glob = ""
            var i = rule.path.startIndex
            while i < rule.path.endIndex {
                if rule.path[i...].hasPrefix("$("), let close = rule.path[i...].firstIndex(of: ")") {
                    glob += "*"
                    i = rule.path.index(after: close)
                } else {
                    glob.append(rule.path[i])
                    i = rule.path.index(after: i)
                }
            }
            var variants = [glob]
            if glob.hasSuffix("/*"), glob.count > 2 { variants.insert(String(glob.dropLast(2)), at: 0) }
            if !glob.contains("*") && !glob.contains("?") && !glob.hasSuffix("/") { variants.append(glob + "/") }
            for path in variants {
                out.append(.init(path: path, exclude: rule.exclude, keyPath: list.appending(out.count).description))
            }
        }
        return out
    }

    /// The `<data>` attributes for one include glob, as Android reads them (`aapt2`'s escapes resolved: see
    /// ``attributeText(_:)``); a `pathPattern` value is in `PatternMatcher`'s syntax, its `.` and `\` escaped.
    static func androidData(for path: String) -> [(String, String)] {
        let hasWildcard = path.contains("*") || path.contains("?") || path.contains("$(")
        if !hasWildcard {
            // iOS ignores a trailing slash; Android compares the path exactly.
            return path.hasSuffix("/") || path.isEmpty ? [("path", path)] : [("path", path), ("path", path + "/")]
        }
        if path.hasSuffix("/*") {
            let parent = String(path.dropLast(2))
            if !(parent.contains("*") || parent.contains("?") || parent.contains("$(")) {
                return parent.isEmpty ? [("pathPrefix", "/")] : [("path", parent), ("pathPrefix", parent + "/")]
            }
        }
        var pattern = ""
        var i = path.startIndex
        while i < path.endIndex {
            let c = path[i]
            if c == "$", path[path.index(after: i)...].hasPrefix("("),
               let close = path[i...].firstIndex(of: ")") {
                pattern += ".*"
                i = path.index(after: close)
                continue
            }
            switch c {
            case "*": pattern += ".*"
            case "?": pattern += "."
            case ".": pattern += "\\."
            case "\\": pattern += "\\\\"
            default: pattern.append(c)
            }
            i = path.index(after: i)
        }
        return [("pathPattern", pattern)]
    }

    /// An attribute value written so that `aapt2` reads back `value`: its string escapes first (a backslash, quote or
    /// apostrophe, `@` and `?` that would start a resource reference, newline and tab as `\n` and `\t`, any other
    /// character XML cannot hold or would normalise as `\uXXXX`), then XML's.
    static func attributeText(_ value: String) -> String {
        var out = ""
        for c in value.unicodeScalars {
            switch c {
            case "\\", "\"", "'", "@", "?": out += "\\" + String(c)
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}", "\u{FFFE}", "\u{FFFF}":
                let hex = String(c.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(c)
            }
        }
        return xmlEscaped(out)
    }

    static func xmlEscaped(_ s: String) -> String {
        MarkupEscaping.escaped(s)
    }
}

private extension String {
    /// XML comments may not contain `--`.
    var replacingDoubleHyphens: String {
        var out = ""
        var previousHyphen = false
        for c in self {
            if c == "-" && previousHyphen {
                out += " -"
                previousHyphen = true
                continue
            }
            previousHyphen = c == "-"
            out.append(c)
        }
        return out
    }
}
