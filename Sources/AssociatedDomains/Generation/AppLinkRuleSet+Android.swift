extension AppLinkRuleSet {
    /// The Android `<intent-filter>` (with `android:autoVerify="true"`) whose `<data>` lines accept the
    /// include rules on `host`.
    ///
    /// A glob without wildcards becomes `android:path` (exact); `X/*` becomes `android:path="X"` plus
    /// `android:pathPrefix="X/"`; any other glob becomes `android:pathPattern` (`*` → `.*`, `?` and `$(name)` →
    /// `.` / `.*`). Intent filters cannot exclude, so exclusions are written as XML comments: keep those URLs
    /// from reaching the app's handler in code.
    /// - Parameter host: The domain, e.g. `news.example.com`.
    /// - Returns: The XML snippet, lines joined with `\n`.
    /// - Throws: ``AssociationError`` when the host is empty or the rules fail ``validate()``.
    public func androidIntentFilter(host: String) throws(AssociationError) -> String {
        try validate()
        guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0 == " " || $0 == ":" }) else {
            throw AssociationError(code: .invalidDomain, message: "\"\(host)\" is not a host name: give e.g. news.example.com")
        }
        var lines = [
            "<intent-filter android:autoVerify=\"true\">",
            "    <action android:name=\"android.intent.action.VIEW\" />",
            "    <category android:name=\"android.intent.category.DEFAULT\" />",
            "    <category android:name=\"android.intent.category.BROWSABLE\" />",
            "    <data android:scheme=\"https\" />",
            "    <data android:host=\"\(AppLinkRuleSet.xmlEscaped(host))\" />",
        ]
        for rule in rules {
            if rule.exclude {
                let text = rule.path.replacingDoubleHyphens
                lines.append("    <!-- excluded on iOS; intent filters cannot exclude, filter in code: \(text) -->")
                continue
            }
            for (attribute, value) in AppLinkRuleSet.androidData(for: rule.path) {
                lines.append("    <data android:\(attribute)=\"\(AppLinkRuleSet.xmlEscaped(value))\" />")
            }
        }
        lines.append("</intent-filter>")
        return lines.joined(separator: "\n")
    }

    /// The `<data>` attributes for one include glob.
    static func androidData(for path: String) -> [(String, String)] {
        let hasWildcard = path.contains("*") || path.contains("?") || path.contains("$(")
        if !hasWildcard {
            return [("path", path)]
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
            case ".": pattern += "\\\\."
            case "\\": pattern += "\\\\\\\\"
            default: pattern.append(c)
            }
            i = path.index(after: i)
        }
        return [("pathPattern", pattern)]
    }

    static func xmlEscaped(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
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
