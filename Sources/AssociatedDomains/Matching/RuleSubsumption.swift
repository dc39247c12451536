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
/// (|earlier| + 1) × (|later| + 1) steps, after a cheaper test that rejects most pairs (each literal run of the
/// earlier glob must lie inside a literal run of the later one). That product is bounded: a pair of globs over
/// ``maximumCellsPerPair`` is not compared (a miss), and ``EarlierRules`` stops comparing a detail's rules after
/// ``maximumCellsPerDetail`` in all, so two 32 KB rules cannot hold the check for a billion steps.
enum RuleSubsumption {
    /// The largest (|earlier| + 1) × (|later| + 1) compared for one pair of globs: 4 million steps, a few
    /// milliseconds.
    static let maximumCellsPerPair = 1 << 22
    /// The most steps the comparisons of one detail's rules may take in all (about 67 million: well under a second).
    static let maximumCellsPerDetail = 1 << 26

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

    /// The earlier rules of one detail, found by the literal path prefix a covering rule must have, so that a later
    /// rule is compared only with the rules that may cover it.
    struct EarlierRules {
        private var rules: [CompiledRule] = []
        /// One node per distinct literal path prefix (of `X` for `X/*`; empty for rules without a path) and per
        /// prefix of those: node 0 is the empty prefix, a child extends its parent by one byte. A later rule walks
        /// its own prefix from the root and meets, on the way, every earlier rule whose prefix begins its own, with
        /// no hashing and no allocation. A node has at most 256 children, so a walk costs at most 256 steps a byte.
        private var nodes = [Node(byte: 0)]
        /// For each rule, the previous rule with the same prefix, or -1: the chains that ``Node/lastRule`` starts.
        private var previousWithSamePrefix: [Int32] = []
        /// The candidates of the rule being checked, kept so that its storage serves every rule.
        private var candidates: [Int] = []
        /// Rule pairs compared so far.
        private(set) var comparisons = 0
        /// The comparison steps those pairs may have taken, at most.
        private(set) var cells = 0

        private struct Node {
            var byte: UInt8
            var firstChild: Int32 = -1
            var nextSibling: Int32 = -1
            /// The last rule whose prefix ends here, or -1.
            var lastRule: Int32 = -1
        }

        /// The child of `node` that adds `byte`, or -1.
        private func child(_ node: Int, _ byte: UInt8) -> Int {
            var child = Int(nodes[node].firstChild)
            while child >= 0, nodes[child].byte != byte { child = Int(nodes[child].nextSibling) }
            return child
        }

        /// The first earlier rule that covers `later`, comparing at most up to `limit` pairs in all.
        mutating func firstCovering(_ later: CompiledRule, limit: Int) -> CompiledRule? {
            guard comparisons < limit else { return nil }
            candidates.removeAll(keepingCapacity: true)
            let prefix = later.pathGlob?.literalPrefix ?? []
            // A rule without a path is compared with the rules without a literal prefix only.
            let length = later.pathGlob == nil ? 0 : prefix.count
            var node = 0
            var depth = 0
            while node >= 0 {
                var rule = Int(nodes[node].lastRule)
                while rule >= 0 {
                    candidates.append(rule)
                    rule = Int(previousWithSamePrefix[rule])
                }
                guard depth < length else { break }
                node = child(node, prefix[depth])
                depth += 1
            }
            candidates.sort()
            let laterSize = RuleSubsumption.size(of: later)
            for index in candidates {
                guard comparisons < limit, cells < RuleSubsumption.maximumCellsPerDetail else { return nil }
                comparisons += 1
                cells += min(RuleSubsumption.size(of: rules[index]) * laterSize, RuleSubsumption.maximumCellsPerPair)
                if RuleSubsumption.covers(rules[index], later) { return rules[index] }
            }
            return nil
        }

        /// Adds the next rule of the detail.
        mutating func append(_ rule: CompiledRule) {
            var node = 0
            for byte in (rule.pathParent ?? rule.pathGlob)?.literalPrefix ?? [] {
                var next = child(node, byte)
                if next < 0 {
                    next = nodes.count
                    nodes.append(Node(byte: byte, nextSibling: nodes[node].firstChild))
                    nodes[node].firstChild = Int32(next)
                }
                node = next
            }
            previousWithSamePrefix.append(nodes[node].lastRule)
            nodes[node].lastRule = Int32(rules.count)
            rules.append(rule)
        }
    }

    /// A bound on the symbols of a rule's globs plus one: what one side of a comparison can cost.
    static func size(of rule: CompiledRule) -> Int {
        func size(_ glob: GlobPattern?) -> Int { glob.map { $0.pool.count + $0.tokens.count } ?? 0 }
        var total = 1 + size(rule.pathGlob) + size(rule.pathParent) + size(rule.fragment)
        switch rule.query {
        case .whole(let glob)?: total += size(glob)
        case .items(let items)?: total += items.reduce(0) { $0 + size($1.value) }
        case nil: break
        }
        return total
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
        let earlierSize = earlier.pool.count + earlier.tokens.count + 1
        let laterSize = later.pool.count + later.tokens.count + 1
        guard earlierSize <= maximumCellsPerPair / laterSize else { return false }
        guard literalRunsFit(earlier, in: later), let inner = symbols(later) else { return false }
        let count = inner.count + 1
        // reachable[j]: the earlier tokens so far can take the first j later symbols. Two rows on the stack: this
        // runs for many rule pairs of a large file.
        return withUnsafeTemporaryAllocation(of: Bool.self, capacity: 2 * count) { buffer in
            var current = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
            var next = UnsafeMutableBufferPointer(rebasing: buffer[count..<(2 * count)])
            current.initialize(repeating: false)
            next.initialize(repeating: false)
            current[0] = true
            func step(_ symbol: Symbol) -> Bool {
                var any = false
                switch symbol {
                case .star:
                    next[0] = current[0]
                    any = next[0]
                    for j in stride(from: 1, to: count, by: 1) {
                        next[j] = current[j] || next[j - 1]
                        any = any || next[j]
                    }
                case .anyCharacter:
                    next[0] = false
                    for j in stride(from: 1, to: count, by: 1) {
                        var taken = false
                        if current[j - 1] {
                            switch inner[j - 1] {
                            case .anyCharacter: taken = true
                            case .byte(let byte): taken = byte < 0x80
                            case .star: taken = false
                            }
                        }
                        next[j] = taken
                        any = any || taken
                    }
                case .byte(let byte):
                    next[0] = false
                    for j in stride(from: 1, to: count, by: 1) {
                        next[j] = current[j - 1] && inner[j - 1] == .byte(byte)
                        any = any || next[j]
                    }
                }
                swap(&current, &next)
                return any
            }
            for token in earlier.tokens {
                switch token {
                case .literal(let start, let length):
                    for index in start..<(start + length) where !step(.byte(earlier.pool[index])) { return false }
                case .anyCharacter:
                    if !step(.anyCharacter) { return false }
                case .star:
                    if !step(.star) { return false }
                case .byteClass, .codeSet, .alternation, .never:
                    return false
                }
            }
            return current[count - 1]
        }
    }

    /// A necessary condition, cheap to test: an earlier literal byte only takes the same later literal byte, so each
    /// literal run of `earlier` lies inside one literal run of `later`, and, both globs being anchored, a run that
    /// starts (ends) `earlier` starts (ends) `later`.
    private static func literalRunsFit(_ earlier: GlobPattern, in later: GlobPattern) -> Bool {
        if case .literal(let start, let count)? = earlier.tokens.first {
            guard case .literal(let laterStart, let laterCount)? = later.tokens.first, laterCount >= count,
                  later.pool[laterStart..<(laterStart + count)].elementsEqual(earlier.pool[start..<(start + count)])
            else { return false }
        }
        if case .literal(let start, let count)? = earlier.tokens.last {
            guard case .literal(let laterStart, let laterCount)? = later.tokens.last, laterCount >= count,
                  later.pool[(laterStart + laterCount - count)..<(laterStart + laterCount)]
                    .elementsEqual(earlier.pool[start..<(start + count)])
            else { return false }
        }
        return earlier.tokens.allSatisfy { token in
            guard case .literal(let start, let length) = token else { return true }
            let run = earlier.pool[start..<(start + length)]
            return later.tokens.contains { candidate in
                guard case .literal(let laterStart, let laterLength) = candidate, laterLength >= length else { return false }
                let text = later.pool[laterStart..<(laterStart + laterLength)]
                var offset = text.startIndex
                while offset + length <= text.endIndex {
                    if text[offset..<(offset + length)].elementsEqual(run) { return true }
                    offset += 1
                }
                return false
            }
        }
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
