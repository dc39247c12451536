/// Android 15's `<uri-relative-filter-group>`: matchers on the path, query and fragment that must *all* match, and
/// whether a URL they match is allowed or blocked. Dynamic App Links rules become groups of this shape on the
/// device too.
///
/// AOSP semantics (`UriRelativeFilterGroup`, `UriRelativeFilter`): groups are tried in order and the first group
/// whose every matcher matches decides (`allow="false"` blocks); a group with no matcher never matches; a query
/// matcher matches when *one* parameter (`name=value`, the decoded query split on `&`, or on `;` when there is no
/// `&`) matches it; a path or fragment matcher matches the whole decoded part, and a missing fragment or query
/// never matches.
package struct AndroidURIRelativeFilterGroup: Sendable, Hashable {
    /// The part of the URL a matcher reads.
    package enum Part: String, Sendable, Hashable, CaseIterable {
        /// The decoded path (`android:path*` inside a group).
        case path
        /// One decoded query parameter, `name=value` (`android:query*`).
        case query
        /// The decoded fragment (`android:fragment*`).
        case fragment
    }

    /// One matcher of a group.
    package struct Matcher: Sendable, Hashable {
        /// The part it reads.
        package var part: Part
        /// The pattern.
        package var pattern: AndroidPattern

        /// Creates a matcher.
        /// - Parameters:
        ///   - part: The part it reads.
        ///   - pattern: The pattern.
        package init(part: Part, pattern: AndroidPattern) {
            self.part = part
            self.pattern = pattern
        }

        /// `android:queryPrefix="id="`, as the manifest spells it.
        package var attribute: String { "android:\(part.rawValue)\(pattern.kind.attributeSuffix)=\"\(pattern.pattern)\"" }

        func matches(_ uri: AndroidURI) -> Bool {
            switch part {
            case .path: return pattern.matches(utf16: uri.path)
            case .fragment: return uri.fragment.map { pattern.matches(utf16: $0) } ?? false
            case .query: return uri.queryParameters.contains { pattern.matches(utf16: $0) }
            }
        }
    }

    /// `true` for `android:allow="true"` (the default), `false` for a group that blocks what it matches.
    package var allow: Bool
    /// The matchers, all of which must match.
    package var matchers: [Matcher]
    /// The line of the element in the manifest, or 0 when built in code.
    package var line: Int

    /// Creates a group.
    /// - Parameters:
    ///   - allow: Whether a URL the group matches is allowed.
    ///   - matchers: The matchers, all of which must match.
    ///   - line: Where it was read, if anywhere.
    package init(allow: Bool, matchers: [Matcher], line: Int = 0) {
        self.allow = allow
        self.matchers = matchers
        self.line = line
    }

    func matches(_ uri: AndroidURI) -> Bool {
        !matchers.isEmpty && matchers.allSatisfy { $0.matches(uri) }
    }

    /// The first group that matches decides; `nil` when none does.
    static func decide(_ groups: [AndroidURIRelativeFilterGroup], _ uri: AndroidURI) -> (index: Int, allow: Bool)? {
        for (index, group) in groups.enumerated() where group.matches(uri) {
            return (index, group.allow)
        }
        return nil
    }
}
