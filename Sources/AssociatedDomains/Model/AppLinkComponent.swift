/// One iOS 13+ `components` rule (also used for `defaults`, where every key is optional in the same way).
///
/// A missing key means "anything"; `exclude`, `caseSensitive` and `percentEncoded` default to `false`, `true`
/// and `true` after ``AppLinkComponent/merged(over:)`` has applied the defaults.
package struct AppLinkComponent: Sendable, Hashable {
    /// The `?` key: a glob over the raw query string, or a dictionary of item name to value glob.
    package enum Query: Sendable, Hashable {
        /// `"?": "glob"`: the glob must match the whole query string (`""` when the URL has none).
        case string(String)
        /// `"?": {"name": "glob", ...}`: every named item must match, in file order.
        case items([QueryItem])
        /// A dictionary holding a non-string value: iOS ignores the whole dictionary, so it matches any query.
        case ignoredDictionary
    }

    /// One `name: glob` pair of a query dictionary.
    package struct QueryItem: Sendable, Hashable {
        /// The item name, compared literally (not a glob).
        package var name: String
        /// The glob every occurrence of the item's value must match (a missing item matches as `""`).
        package var value: String

        /// Creates a pair.
        /// - Parameters:
        ///   - name: The item name.
        ///   - value: The value glob.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `/`: the path glob.
    package var path: String?
    /// `?`: the query rule.
    package var query: Query?
    /// `#`: the fragment glob (`""` when the URL has none).
    package var fragment: String?
    /// `exclude`: a match means "do not open the app".
    package var exclude: Bool?
    /// `caseSensitive`: `false` folds ASCII case in the URL and the patterns.
    package var caseSensitive: Bool?
    /// `percentEncoded`: `false` percent-decodes the URL (never the pattern) before comparing.
    package var percentEncoded: Bool?
    /// `comment`: ignored by iOS.
    package var comment: String?

    /// Creates a rule; every key is optional.
    /// - Parameters:
    ///   - path: `/`.
    ///   - query: `?`.
    ///   - fragment: `#`.
    ///   - exclude: `exclude`.
    ///   - caseSensitive: `caseSensitive`.
    ///   - percentEncoded: `percentEncoded`.
    ///   - comment: `comment`.
    package init(
        path: String? = nil,
        query: Query? = nil,
        fragment: String? = nil,
        exclude: Bool? = nil,
        caseSensitive: Bool? = nil,
        percentEncoded: Bool? = nil,
        comment: String? = nil
    ) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
        self.comment = comment
    }

    /// Converts a legacy `paths` entry: `"NOT /x"` (exactly `NOT` and one space) is `{"/": "/x", "exclude": true}`,
    /// anything else is `{"/": entry}`.
    /// - Parameter legacyPath: The `paths` entry.
    package init(legacyPath: String) {
        if legacyPath.hasPrefix("NOT ") {
            self.init(path: String(legacyPath.dropFirst(4)), exclude: true)
        } else {
            self.init(path: legacyPath)
        }
    }

    /// This rule with every key it leaves unset taken from `base` (defaults merge per key).
    /// - Parameter base: The defaults to fall back on.
    /// - Returns: The merged rule.
    package func merged(over base: AppLinkComponent?) -> AppLinkComponent {
        guard let base else { return self }
        return AppLinkComponent(
            path: path ?? base.path,
            query: query ?? base.query,
            fragment: fragment ?? base.fragment,
            exclude: exclude ?? base.exclude,
            caseSensitive: caseSensitive ?? base.caseSensitive,
            percentEncoded: percentEncoded ?? base.percentEncoded,
            comment: comment
        )
    }
}
