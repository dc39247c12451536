/// One rule, with its defaults merged and its patterns compiled; what the matcher walks for every URL.
///
/// A final class so that walking a thousand rules copies one reference per rule, not every field.
final class CompiledRule: Sendable {
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

    let detailIndex: Int
    let ruleIndex: Int
    /// e.g. `applinks.details[0].components[1]`.
    let keyPath: String
    /// The rule as written, one line of JSON, for explanations.
    let source: String
    let exclude: Bool
    let caseSensitive: Bool
    let percentEncoded: Bool
    let foldsQueryItemNames: Bool
    let path: PathPattern?
    // The path pattern's parts again as plain stored properties, so the hot path reads them without copying
    // the struct (and retaining its patterns).
    let pathGlob: GlobPattern?
    let pathParent: GlobPattern?
    let pathAlsoWithoutLeadingSlash: Bool
    /// The rule has a query or fragment pattern to check after the path.
    let checksQueryOrFragment: Bool
    let query: QueryPattern?
    let fragment: GlobPattern?
    let undefinedVariables: [String]
    /// Variables refused for the file's budget (``SubstitutionVariables/maximumAlternativeUses``).
    let overBudgetVariables: [String]
    /// A pattern of the rule was refused for the work budget (``SubstitutionVariables/maximumPatternWork``).
    let exceedsWorkBudget: Bool
    /// The explanation of a URL this rule decides, written once here rather than for every matched URL.
    let decision: String

    /// Compiles a merged rule.
    /// - Parameters:
    ///   - rule: The rule with defaults already merged.
    ///   - ignoresQueryAndFragment: iOS 9–12 mode: only the path counts.
    ///   - variables: The file's variables, shared by all its rules.
    init(
        _ rule: AppLinkComponent, detailIndex: Int, ruleIndex: Int, keyPath: String, source: String,
        variables: SubstitutionVariables, foldsQueryItemNames: Bool, ignoresQueryAndFragment: Bool
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
        var overBudget: [String] = []
        var exceedsWorkBudget = false
        func compile<C: Collection<UInt8>>(_ text: C) -> GlobPattern where C.Index == Int {
            let glob = GlobPattern(text, variables: variables, caseInsensitive: !caseSensitive)
            if !glob.undefinedVariables.isEmpty { undefined += glob.undefinedVariables }
            if !glob.overBudgetVariables.isEmpty { overBudget += glob.overBudgetVariables }
            if glob.exceedsWorkBudget { exceedsWorkBudget = true }
            return glob
        }
        func compileText(_ text: String) -> GlobPattern {
            var text = text
            return text.withUTF8 { compile($0) }
        }
        var pathPattern: PathPattern?
        if var text = rule.path {
            pathPattern = text.withUTF8 { bytes in
                let normalised = CompiledRule.normalisedPathPattern(bytes, bytes.indices)
                let glob = compile(UnsafeBufferPointer(rebasing: bytes[normalised]))
                var parent: GlobPattern?
                if normalised.count >= 2, bytes[normalised.upperBound - 1] == UInt8(ascii: "*"),
                   bytes[normalised.upperBound - 2] == UInt8(ascii: "/") {
                    let parentRange = CompiledRule.normalisedPathPattern(
                        bytes, normalised.lowerBound..<(normalised.upperBound - 2))
                    parent = compile(UnsafeBufferPointer(rebasing: bytes[parentRange]))
                }
                return PathPattern(
                    glob: glob, parent: parent,
                    alsoWithoutLeadingSlash: normalised.isEmpty || bytes[normalised.lowerBound] != UInt8(ascii: "/"))
            }
        }
        self.path = pathPattern
        self.pathGlob = pathPattern?.glob
        self.pathParent = pathPattern?.parent
        self.pathAlsoWithoutLeadingSlash = pathPattern?.alsoWithoutLeadingSlash ?? false
        var queryPattern: QueryPattern?
        var fragmentPattern: GlobPattern?
        if !ignoresQueryAndFragment {
            switch rule.query {
            case .string(let text)?:
                queryPattern = .whole(compileText(text))
            case .items(let items)?:
                queryPattern = .items(items.map { item in
                    let name = Array(item.name.utf8)
                    let foldName = !caseSensitive && foldsQueryItemNames
                    return QueryItemPattern(
                        name: foldName ? ASCII.lowered(name) : name, displayName: item.name, value: compileText(item.value))
                })
            case .ignoredDictionary?, nil:
                break
            }
            if let text = rule.fragment {
                fragmentPattern = compileText(text)
            }
        }
        self.query = queryPattern
        self.fragment = fragmentPattern
        self.checksQueryOrFragment = queryPattern != nil || fragmentPattern != nil
        self.undefinedVariables = undefined
        self.overBudgetVariables = overBudget
        self.exceedsWorkBudget = exceedsWorkBudget
        // A rule compiled without its source (a reader's check) never explains a match.
        self.decision = source.isEmpty ? "" : "\((rule.exclude ?? false) ? "excluded by" : "matched") \(keyPath) \(source)"
    }

    /// Compiles a merged rule with variables of its own (tests and one-off comparisons).
    convenience init(
        _ rule: AppLinkComponent, detailIndex: Int, ruleIndex: Int, keyPath: String, source: String,
        variables: [String: [String]], foldsQueryItemNames: Bool, ignoresQueryAndFragment: Bool
    ) {
        self.init(
            rule, detailIndex: detailIndex, ruleIndex: ruleIndex, keyPath: keyPath, source: source,
            variables: SubstitutionVariables(variables), foldsQueryItemNames: foldsQueryItemNames,
            ignoresQueryAndFragment: ignoresQueryAndFragment)
    }

    /// The part of `bytes[range]` that is the pattern with trailing slashes dropped (a lone `/` stays) and leading
    /// slashes collapsed to one, as for URL paths; an empty pattern stays empty.
    static func normalisedPathPattern(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        guard !range.isEmpty else { return range }
        var start = range.lowerBound
        var end = range.upperBound
        while end > start, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        if end == start { return start..<(start + 1) }
        while start + 1 < end, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") { start += 1 }
        return start..<end
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

    /// Whether the path pattern (if any) matches the normalised path variant this rule asks for, adding the work
    /// done to `steps`.
    @inline(__always)
    func pathMatches(_ buffer: UnsafeBufferPointer<UInt8>, _ steps: inout Int) -> Bool {
        guard let glob = pathGlob else { return true }
        if glob.matches(buffer, 0, buffer.count, steps: &steps) { return true }
        if let parent = pathParent, parent.matches(buffer, 0, buffer.count, steps: &steps) { return true }
        if pathAlsoWithoutLeadingSlash, buffer.count > 0, buffer[0] == 0x2F {
            if glob.matches(buffer, 1, buffer.count, steps: &steps) { return true }
            if let parent = pathParent, parent.matches(buffer, 1, buffer.count, steps: &steps) { return true }
        }
        return false
    }

    /// `nil` when the rule matches the URL, else the first part that did not match; adds the work done to `steps`.
    func firstMismatch(_ context: inout MatchContext, _ steps: inout Int) -> Part? {
        if pathGlob != nil {
            let bytes = context.path(decoded: !percentEncoded, folded: !caseSensitive)
            if !bytes.withUnsafeBufferPointer({ pathMatches($0, &steps) }) { return .path }
        }
        return queryOrFragmentMismatch(&context, &steps)
    }

    /// `nil` when the query and fragment patterns (if any) match, else the first that did not; adds the work done
    /// to `steps`.
    func queryOrFragmentMismatch(_ context: inout MatchContext, _ steps: inout Int) -> Part? {
        let decoded = !percentEncoded
        let folded = !caseSensitive
        switch query {
        case .whole(let glob)?:
            if !glob.matches(context.query(decoded: decoded, folded: folded), steps: &steps) { return .query }
        case .items(let patterns)?:
            let items = context.queryItems(decoded: decoded)
            let foldNames = folded && foldsQueryItemNames
            for pattern in patterns {
                // Only the items of that name: a URL of many items costs each rule what it names, not every item.
                let named = context.queryItemIndexes(named: pattern.name, decoded: decoded, foldedName: foldNames)
                steps += 1
                for i in named {
                    if !pattern.value.matches(folded ? items[i].foldedValue : items[i].value, steps: &steps) {
                        return .queryItem(pattern.displayName)
                    }
                }
                if named.isEmpty, !pattern.value.matches([], steps: &steps) {
                    return .queryItem(pattern.displayName)
                }
            }
        case nil:
            break
        }
        if let fragment, !fragment.matches(context.fragment(decoded: decoded, folded: folded), steps: &steps) {
            return .fragment
        }
        return nil
    }
}
