/// One rule, with its defaults merged and its patterns compiled; what the matcher walks for every URL.
struct CompiledRule: Sendable {
    /// Which part of a URL a rule stopped matching at.
    enum Part: Sendable, Hashable {
        case path
        case query
        case queryItem(String)
        case fragment
    }

    struct PathPattern: Sendable {
        var glob: GlobPattern
        /// For `X/*`: the pattern `X`, which iOS also accepts.
        var parent: GlobPattern?
        /// The pattern has no leading `/`: also try the path without its leading `/`.
        var alsoWithoutLeadingSlash: Bool
    }

    struct QueryItemPattern: Sendable {
        var name: [UInt8]
        var displayName: String
        var value: GlobPattern
    }

    enum QueryPattern: Sendable {
        case whole(GlobPattern)
        case items([QueryItemPattern])
    }

    var detailIndex: Int
    var ruleIndex: Int
    /// e.g. `applinks.details[0].components[1]`.
    var keyPath: String
    /// The rule as written, one line of JSON, for explanations.
    var source: String
    var exclude: Bool
    var caseSensitive: Bool
    var percentEncoded: Bool
    var foldsQueryItemNames: Bool
    var path: PathPattern?
    var query: QueryPattern?
    var fragment: GlobPattern?
    var undefinedVariables: [String]

    /// Compiles a merged rule.
    /// - Parameters:
    ///   - rule: The rule with defaults already merged.
    ///   - ignoresQueryAndFragment: iOS 9–12 mode: only the path counts.
    init(
        _ rule: AppLinkComponent, detailIndex: Int, ruleIndex: Int, keyPath: String, source: String,
        variables: [String: [String]], foldsQueryItemNames: Bool, ignoresQueryAndFragment: Bool
    ) {
        self.detailIndex = detailIndex
        self.ruleIndex = ruleIndex
        self.keyPath = keyPath
        self.source = source
        self.exclude = rule.exclude ?? false
        let caseSensitive = rule.caseSensitive ?? true
        self.caseSensitive = caseSensitive
        self.percentEncoded = rule.percentEncoded ?? true
        self.foldsQueryItemNames = foldsQueryItemNames
        var undefined: [String] = []
        func compile(_ text: String) -> GlobPattern {
            let glob = GlobPattern(text, variables: variables, caseInsensitive: !caseSensitive)
            undefined += glob.undefinedVariables
            return glob
        }
        if let text = rule.path {
            let normalised = CompiledRule.normalisedPathPattern(Array(text.utf8))
            let glob = GlobPattern(normalised, variables: variables, caseInsensitive: !caseSensitive)
            undefined += glob.undefinedVariables
            var parent: GlobPattern?
            if normalised.count >= 2, normalised[normalised.count - 1] == UInt8(ascii: "*"),
               normalised[normalised.count - 2] == UInt8(ascii: "/") {
                parent = GlobPattern(
                    CompiledRule.normalisedPathPattern(Array(normalised.dropLast(2))),
                    variables: variables, caseInsensitive: !caseSensitive)
            }
            self.path = PathPattern(
                glob: glob, parent: parent, alsoWithoutLeadingSlash: normalised.first != UInt8(ascii: "/"))
        }
        if !ignoresQueryAndFragment {
            switch rule.query {
            case .string(let text)?:
                self.query = .whole(compile(text))
            case .items(let items)?:
                self.query = .items(items.map { item in
                    let name = Array(item.name.utf8)
                    let foldName = !caseSensitive && foldsQueryItemNames
                    return QueryItemPattern(
                        name: foldName ? ASCII.lowered(name) : name, displayName: item.name, value: compile(item.value))
                })
            case .ignoredDictionary?, nil:
                self.query = nil
            }
            if let text = rule.fragment {
                self.fragment = compile(text)
            }
        }
        self.undefinedVariables = undefined
    }

    /// Trailing slashes dropped (a lone `/` stays), leading slashes collapsed to one: as for URL paths.
    static func normalisedPathPattern(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.isEmpty { return bytes }
        return URLParts.normalisedPath(bytes)
    }

    /// The rule matches everything (no path, query or fragment restriction left).
    var isCatchAll: Bool {
        let pathAll = path.map { $0.glob.matchesEverything } ?? true
        var queryAll = true
        switch query {
        case .whole(let glob)?: queryAll = glob.matchesEverything
        case .items(let items)?: queryAll = items.allSatisfy { $0.value.matchesEverything }
        case nil: break
        }
        let fragmentAll = fragment?.matchesEverything ?? true
        return pathAll && queryAll && fragmentAll
    }

    /// `nil` when the rule matches the URL, else the first part that did not match.
    func firstMismatch(_ context: inout MatchContext) -> Part? {
        let decoded = !percentEncoded
        let folded = !caseSensitive
        if let path {
            let bytes = context.path(decoded: decoded, folded: folded)
            let ok = bytes.withUnsafeBufferPointer { buffer -> Bool in
                if path.glob.matches(buffer, 0, buffer.count) { return true }
                if let parent = path.parent, parent.matches(buffer, 0, buffer.count) { return true }
                if path.alsoWithoutLeadingSlash, buffer.count > 0, buffer[0] == 0x2F {
                    if path.glob.matches(buffer, 1, buffer.count) { return true }
                    if let parent = path.parent, parent.matches(buffer, 1, buffer.count) { return true }
                }
                return false
            }
            if !ok { return .path }
        }
        switch query {
        case .whole(let glob)?:
            if !glob.matches(context.query(decoded: decoded, folded: folded)) { return .query }
        case .items(let patterns)?:
            let items = context.queryItems(decoded: decoded)
            let foldNames = folded && foldsQueryItemNames
            for pattern in patterns {
                var seen = false
                for item in items where (foldNames ? item.foldedName : item.name) == pattern.name {
                    seen = true
                    if !pattern.value.matches(folded ? item.foldedValue : item.value) {
                        return .queryItem(pattern.displayName)
                    }
                }
                if !seen, !pattern.value.matches([]) {
                    return .queryItem(pattern.displayName)
                }
            }
        case nil:
            break
        }
        if let fragment, !fragment.matches(context.fragment(decoded: decoded, folded: folded)) {
            return .fragment
        }
        return nil
    }
}
