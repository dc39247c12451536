/// Yields the routes of one ``SegmentIndex`` that can match a request, best rank first, one at a time.
///
/// A best-first walk: a min-heap holds trie nodes keyed by the best rank below them and leaf-list positions keyed
/// by their route's rank. Popping a node pushes its literal child for the next URL component (one hash lookup), its
/// variable child, its `*` routes and, when every component is consumed, the routes ending there. Because a node's
/// key never exceeds the rank of anything below it, leaves come out in exactly JLRoutes' list order, and the cost of
/// finding the first candidate does not grow with the number of routes that do not match. Later candidates (for a
/// handler that returns `false`) are produced only when asked for.
struct CandidateSearch {
    private enum Target {
        case node(Int, depth: Int, hostAware: Bool)
        case leaves(Int, isWildcard: Bool, position: Int)
    }

    private struct Item {
        var rank: RouteRank
        var target: Target
    }

    private let index: SegmentIndex
    private let request: RouteRequest
    private var heap: [Item] = []

    /// Starts a search for `request` in `index`.
    init(index: SegmentIndex, request: RouteRequest) {
        self.index = index
        self.request = request
        heap.reserveCapacity(8)
        push(Item(rank: index.nodes[SegmentIndex.plainRoot].best, target: .node(SegmentIndex.plainRoot, depth: 0, hostAware: false)))
        // Building the host keys costs more than the rest of the search: only when host-aware routes exist.
        if index.nodes[SegmentIndex.hostRoot].hasLiterals, let scheme = request.scheme, let host = request.host {
            for key in HostPattern.indexKeys(scheme: scheme, host: host) {
                if let child = index.literalChild(of: SegmentIndex.hostRoot, key) {
                    push(Item(rank: index.nodes[child].best, target: .node(child, depth: 0, hostAware: true)))
                }
            }
        }
    }

    /// The entry number of the next candidate, or `nil` when there is none left.
    mutating func next() -> Int? {
        while let item = pop() {
            switch item.target {
            case .leaves(let node, let isWildcard, let position):
                let leaves = isWildcard ? index.nodes[node].wildcard : index.nodes[node].terminal
                if position + 1 < leaves.count {
                    push(Item(rank: leaves[position + 1].rank, target: .leaves(node, isWildcard: isWildcard, position: position + 1)))
                }
                return leaves[position].entry
            case .node(let node, let depth, let hostAware):
                let current = index.nodes[node]
                let path = request.spans(hostAware: hostAware)
                if depth == path.count, let first = current.terminal.first {
                    push(Item(rank: first.rank, target: .leaves(node, isWildcard: false, position: 0)))
                }
                if let first = current.wildcard.first {
                    push(Item(rank: first.rank, target: .leaves(node, isWildcard: true, position: 0)))
                }
                guard depth < path.count else { continue }
                let span = path[path.startIndex + depth]
                let literal = request.bytes.withUnsafeBytes { index.literalChild(of: node, UnsafeRawBufferPointer(rebasing: $0[span])) }
                if let child = literal {
                    push(Item(rank: index.nodes[child].best, target: .node(child, depth: depth + 1, hostAware: hostAware)))
                }
                if let child = current.variable {
                    push(Item(rank: index.nodes[child].best, target: .node(child, depth: depth + 1, hostAware: hostAware)))
                }
            }
        }
        return nil
    }

    // MARK: - Binary heap on rank

    private mutating func push(_ item: Item) {
        guard item.rank != .last else { return }
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].rank < heap[parent].rank else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() -> Item? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].rank < heap[smallest].rank { smallest = left }
            if right < heap.count, heap[right].rank < heap[smallest].rank { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }
}
