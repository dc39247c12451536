/// Whether one rule matches every URL another matches: then the other, placed after it, never decides anything.
///
/// Sound, not complete: `covers` answers `true` only when every URL the later rule matches is certainly matched by
/// the earlier one, so a warning built on it is never a false positive. It answers `false` (a miss) whenever the
/// rules differ in `caseSensitive` or `percentEncoded`, when a pattern holds a `$(variable)`, when the later rule's
/// path has no leading `/` (iOS also tries it without one), and for coverings that only hold through the URL
/// normalisations (trailing slashes, `//`) rather than through the patterns themselves.
///
/// Globs are compared as languages: the earlier glob covers the later one when it matches the later one's text
/// with the later `?` and `*` taken as symbols: an earlier `*` takes any run of them, an earlier `?` takes one `?`
/// or one ASCII byte, an earlier literal byte takes the same literal byte. Whatever string the later glob matches
/// is then matched by the earlier one, symbol by symbol. A dynamic programme over the two patterns: at most
/// (|earlier| + 1) × (|later| + 1) steps.
enum RuleSubsumption {
    /// One glob token as the comparison sees it.
    private enum Symbol: Equatable {
        case byte(UInt8)
        case anyCharacter
        case star
    }

    /// Whether `earlier` matches every URL `later` matches (both compiled with their defaults merged).
    static func covers(_ earlier: CompiledRule, _ later: CompiledRule) -> Bool {
        guard earlier.caseSensitive == later.caseSensitive, earlier.percentEncoded == later.percentEncoded else {
            return false
        }
        return pathCovers(earlier, later) && queryCovers(earlier.query, later.query)
            && globCovers(earlier.fragment, later.fragment)
    }

    /// Whether `earlier`'s literal path prefix allows it to cover `later` at all: a cheap test before ``covers(_:_:)``.
    static func mayCover(_ earlier: CompiledRule, _ later: CompiledRule) -> Bool {
        guard let outer = earlier.pathParent ?? earlier.pathGlob else { return true }
        guard let inner = later.pathGlob else { return outer.matchesEverything }
        return inner.literalPrefix.starts(with: outer.literalPrefix)
    }

    private static func pathCovers(_ earlier: CompiledRule, _ later: CompiledRule) -> Bool {
        guard let outer = earlier.pathGlob else { return true }
        if outer.matchesEverything { return true }
        // A later path without a leading `/` also matches paths iOS strips of theirs: not modelled, so not covered.
        guard let inner = later.pathGlob, !later.pathAlsoWithoutLeadingSlash else { return false }
        func coveredByEarlier(_ glob: GlobPattern) -> Bool {
            globCovers(outer, glob) || (earlier.pathParent.map { globCovers($0, glob) } ?? false)
        }
        // `X/*` also matches `X`: the earlier rule must match that too.
        return coveredByEarlier(inner) && (later.pathParent.map(coveredByEarlier) ?? true)
    }

    private static func queryCovers(_ earlier: CompiledRule.QueryPattern?, _ later: CompiledRule.QueryPattern?) -> Bool {
        switch earlier {
        case nil:
            return true
        case .whole(let outer)?:
            if outer.matchesEverything { return true }
            guard case .whole(let inner)? = later else { return false }
            return globCovers(outer, inner)
        case .items(let outerItems)?:
            return outerItems.allSatisfy { outer in
                if outer.value.matchesEverything { return true }
                // Every occurrence of the item (or `""` when it is missing) matches the later glob, so the earlier one.
                guard case .items(let innerItems)? = later else { return false }
                return innerItems.contains { $0.name == outer.name && globCovers(outer.value, $0.value) }
            }
        }
    }

    private static func globCovers(_ earlier: GlobPattern?, _ later: GlobPattern?) -> Bool {
        guard let earlier else { return true }
        if earlier.matchesEverything { return true }
        guard let later else { return false }
        return globCovers(earlier, later)
    }

    /// Whether every string `later` matches, `earlier` matches.
    static func globCovers(_ earlier: GlobPattern, _ later: GlobPattern) -> Bool {
        if earlier.matchesEverything { return true }
        guard let outer = symbols(earlier), let inner = symbols(later) else { return false }
        // reachable[j]: the outer symbols so far can take the first j inner symbols.
        var reachable = [Bool](repeating: false, count: inner.count + 1)
        reachable[0] = true
        for symbol in outer {
            var next = [Bool](repeating: false, count: inner.count + 1)
            switch symbol {
            case .star:
                next[0] = reachable[0]
                if inner.count > 0 {
                    for j in 1...inner.count { next[j] = reachable[j] || next[j - 1] }
                }
            case .anyCharacter:
                for j in stride(from: 1, through: inner.count, by: 1) where reachable[j - 1] {
                    switch inner[j - 1] {
                    case .anyCharacter: next[j] = true
                    case .byte(let byte): next[j] = byte < 0x80
                    case .star: break
                    }
                }
            case .byte(let byte):
                for j in stride(from: 1, through: inner.count, by: 1) where reachable[j - 1] {
                    next[j] = inner[j - 1] == .byte(byte)
                }
            }
            reachable = next
            if !reachable.contains(true) { return false }
        }
        return reachable[inner.count]
    }

    /// The glob as symbols, or `nil` when it holds a variable (not compared).
    private static func symbols(_ glob: GlobPattern) -> [Symbol]? {
        var result: [Symbol] = []
        for token in glob.tokens {
            switch token {
            case .literal(let start, let count):
                result += glob.pool[start..<(start + count)].map(Symbol.byte)
            case .anyCharacter:
                result.append(.anyCharacter)
            case .star:
                result.append(.star)
            case .byteClass, .codeSet, .alternation, .never:
                return nil
            }
        }
        return result
    }
}
