/// A segment trie over the patterns of one namespace, keyed on the bytes of each literal component.
///
/// Each node has literal children (a hash lookup on the URL component's bytes), at most one child for variables
/// (every `:name` at that depth shares it; names live in the route), the routes that end there, the routes whose
/// `*` sits there, and the best rank found anywhere below it. Host-aware routes hang under a second root, keyed
/// first by `scheme://host` (or `scheme://*.suffix`). ``CandidateSearch`` walks it best rank first.
struct SegmentIndex: Sendable {
    /// One registered route as the index knows it.
    struct Leaf: Sendable {
        var rank: RouteRank
        var entry: Int
    }

    struct Node: Sendable {
        var literals: [SegmentKey: Int] = [:]
        var variable: Int?
        /// Routes ending here, sorted by rank.
        var terminal: [Leaf] = []
        /// Routes with `*` here, sorted by rank.
        var wildcard: [Leaf] = []
        /// A lower bound for the rank of every leaf below (never raised by a removal, which keeps it a bound).
        var best: RouteRank = .last
    }

    /// Where a route was stored, to remove it again.
    struct Location: Sendable, Hashable {
        var node: Int
        var isWildcard: Bool
    }

    static let plainRoot = 0
    static let hostRoot = 1

    private(set) var nodes: [Node] = [Node(), Node()]

    /// Stores `entry` under `pattern` with `rank`.
    mutating func insert(_ pattern: CompiledPattern, rank: RouteRank, entry: Int) -> Location {
        var path: [Int] = []
        // Sized up front: growing it one node at a time reallocated it three times per registered route.
        path.reserveCapacity(pattern.components.count + 2)
        var node: Int
        if let host = pattern.host {
            path.append(Self.hostRoot)
            node = child(of: Self.hostRoot, literal: host.indexKey)
        } else {
            node = Self.plainRoot
        }
        var isWildcard = false
        for component in pattern.components {
            path.append(node)
            switch component {
            case .literal(let bytes):
                node = child(of: node, literal: bytes)
            case .variable:
                if let existing = nodes[node].variable {
                    node = existing
                } else {
                    nodes.append(Node())
                    nodes[node].variable = nodes.count - 1
                    node = nodes.count - 1
                }
            case .wildcard:
                path.removeLast()
                isWildcard = true
            }
            if isWildcard { break }
        }
        path.append(node)
        let leaf = Leaf(rank: rank, entry: entry)
        if isWildcard {
            Self.insertSorted(leaf, into: &nodes[node].wildcard)
        } else {
            Self.insertSorted(leaf, into: &nodes[node].terminal)
        }
        for visited in path where rank < nodes[visited].best {
            nodes[visited].best = rank
        }
        return Location(node: node, isWildcard: isWildcard)
    }

    /// Removes `entry` from where ``insert(_:rank:entry:)`` put it.
    mutating func remove(entry: Int, at location: Location) {
        if location.isWildcard {
            nodes[location.node].wildcard.removeAll { $0.entry == entry }
        } else {
            nodes[location.node].terminal.removeAll { $0.entry == entry }
        }
    }

    /// The leaves stored at one location, best rank first (diagnostics use it to find duplicates).
    func leaves(at location: Location) -> [Leaf] {
        location.isWildcard ? nodes[location.node].wildcard : nodes[location.node].terminal
    }

    private mutating func child(of node: Int, literal: [UInt8]) -> Int {
        let key = SegmentKey(literal)
        if let existing = nodes[node].literals[key] { return existing }
        nodes.append(Node())
        nodes[node].literals[key] = nodes.count - 1
        return nodes.count - 1
    }

    private static func insertSorted(_ leaf: Leaf, into leaves: inout [Leaf]) {
        var low = 0
        var high = leaves.count
        while low < high {
            let middle = (low + high) / 2
            if leaves[middle].rank < leaf.rank { low = middle + 1 } else { high = middle }
        }
        leaves.insert(leaf, at: low)
    }
}
