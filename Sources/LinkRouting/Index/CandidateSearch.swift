/// Yields the routes of one ``SegmentIndex`` that can match a request, best rank first, one at a time.
///
/// Each step is a depth-first walk of the trie nodes the URL can reach (the literal child for the next URL
/// component, found with one hash lookup where the component lies, and the variable child), looking for the
/// best-ranked route, ending where the components end or with a `*`, that is ranked after the previous candidate.
/// A node whose best rank below is no better than the best route found so far is not entered, so the walk follows
/// one path in the common case and never visits routes the URL cannot reach. Because every step returns the best
/// remaining rank, candidates come out in exactly JLRoutes' list order; later ones (for a handler that returns
/// `false`) are looked for only when asked for. The walk is a loop, not a recursion, so its depth is not bounded
/// by the stack; a step allocates nothing unless the URL reaches a node with both a literal and a variable child.
struct CandidateSearch {
    /// The host-aware roots (`scheme://host`, `scheme://*.suffix`) the request's scheme and host reach.
    private var hostRoots: [Int] = []
    /// The rank of the previous candidate; the next one is ranked after it.
    private var previous: RouteRank?

    /// Starts a search for `request` in `index`.
    init(index: SegmentIndex, request: RouteRequest) {
        // Building the host keys costs more than the rest of the search: only when host-aware routes exist.
        guard index.nodes[SegmentIndex.hostRoot].hasLiterals, let scheme = request.scheme, let host = request.host else { return }
        for key in HostPattern.indexKeys(scheme: scheme, host: host) {
            if let child = index.literalChild(of: SegmentIndex.hostRoot, key) { hostRoots.append(child) }
        }
    }

    /// The entry number of the next candidate, or `nil` when there is none left.
    ///
    /// - Parameters:
    ///   - index: the index given to ``init(index:request:)``.
    ///   - request: the request given to ``init(index:request:)``.
    mutating func next(in index: SegmentIndex, for request: RouteRequest) -> Int? {
        var found: SegmentIndex.Leaf?
        let previous = self.previous
        request.bytes.withUnsafeBytes { bytes in
            Self.visit(
                SegmentIndex.plainRoot, spans: request.spans(hostAware: false), bytes: bytes, index: index,
                after: previous, found: &found)
            if !hostRoots.isEmpty {
                let hostless = request.spans(hostAware: true)
                for root in hostRoots {
                    Self.visit(root, spans: hostless, bytes: bytes, index: index, after: previous, found: &found)
                }
            }
        }
        guard let found else { return nil }
        self.previous = found.rank
        return found.entry
    }

    /// A depth-first walk from `root`, without recursion: a URL or a pattern of a million components costs a
    /// million steps, never a million stack frames. Where both a literal and a variable child can be entered, the
    /// better-ranked one is walked first and the other kept on `pending`; the order, and so the pruning, is what a
    /// recursion would do. A walk along one path allocates nothing; only a branch point pushes onto `pending`.
    private static func visit(
        _ root: Int, spans: ArraySlice<Range<Int>>, bytes: UnsafeRawBufferPointer, index: SegmentIndex,
        after previous: RouteRank?, found: inout SegmentIndex.Leaf?
    ) {
        var pending: [(node: Int, depth: Int)] = []
        var next: (node: Int, depth: Int)? = (root, 0)
        while let (node, depth) = next ?? pending.popLast() {
            next = nil
            if let found, !(index.nodes[node].best < found.rank) { continue }
            if depth == spans.count { consider(index.leaves(of: node, wildcard: false), after: previous, found: &found) }
            consider(index.leaves(of: node, wildcard: true), after: previous, found: &found)
            guard depth < spans.count else { continue }
            let span = spans[spans.startIndex + depth]
            let literal = index.literalChild(of: node, UnsafeRawBufferPointer(rebasing: bytes[span]))
            let variable = index.nodes[node].variable
            switch (literal, variable) {
            case let (literal?, variable?):
                // The better-ranked subtree first, so that the other is more often skipped.
                if index.nodes[variable].best < index.nodes[literal].best {
                    pending.append((literal, depth + 1))
                    next = (variable, depth + 1)
                } else {
                    pending.append((variable, depth + 1))
                    next = (literal, depth + 1)
                }
            case let (literal?, nil):
                next = (literal, depth + 1)
            case let (nil, variable?):
                next = (variable, depth + 1)
            case (nil, nil):
                break
            }
        }
    }

    /// Takes the best leaf of `leaves` (sorted by rank) ranked after `previous`, if it beats `found`.
    private static func consider(_ leaves: ArraySlice<SegmentIndex.Leaf>, after previous: RouteRank?, found: inout SegmentIndex.Leaf?) {
        guard !leaves.isEmpty else { return }
        var position = leaves.startIndex
        if let previous {
            var high = leaves.endIndex
            while position < high {
                let middle = (position + high) / 2
                if previous < leaves[middle].rank { high = middle } else { position = middle + 1 }
            }
            guard position < leaves.endIndex else { return }
        }
        let leaf = leaves[position]
        if let current = found, !(leaf.rank < current.rank) { return }
        found = leaf
    }
}
