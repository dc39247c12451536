/// A segment trie over the patterns of one namespace, keyed on the bytes of each literal component.
///
/// Each node has literal children, at most one child for variables (every `:name` at that depth shares it; names
/// live in the route), the routes that end there, the routes whose `*` sits there, and the best rank found anywhere
/// below it. Host-aware routes hang under a second root, keyed first by `scheme://host` (or `scheme://*.suffix`).
/// ``CandidateSearch`` walks it best rank first.
///
/// The literal edges of all nodes live in one open-addressing table keyed by (parent node, bytes), the key bytes in
/// one shared buffer: registering a route allocates no dictionary per node, and a lookup hashes the URL component
/// where it lies, without copying it. The hash is not seeded: the keys inserted are the route table's own literals,
/// never a URL's, so a URL can only probe the table, not fill it with collisions.
struct SegmentIndex: Sendable {
    /// One registered route as the index knows it.
    struct Leaf: Sendable {
        var rank: RouteRank
        var entry: Int
    }

    struct Node: Sendable {
        /// The first of this node's literal edges (``Edge/nextSibling`` links the rest), or -1.
        var firstLiteral = -1
        var variable: Int?
        /// Routes ending here, sorted by rank.
        var terminal: [Leaf] = []
        /// Routes with `*` here, sorted by rank.
        var wildcard: [Leaf] = []
        /// A lower bound for the rank of every leaf below (never raised by a removal, which keeps it a bound).
        var best: RouteRank = .last

        /// Whether the node has literal children.
        var hasLiterals: Bool { firstLiteral >= 0 }
    }

    /// A literal edge: `parent` to `child` on the bytes `keyBytes[keyStart..<keyStart + keyCount]`.
    private struct Edge: Sendable {
        var parent: Int
        var child: Int
        var hash: Int
        var keyStart: Int
        var keyCount: Int
        var nextSibling: Int
    }

    /// Where a route was stored, to remove it again.
    struct Location: Sendable, Hashable {
        var node: Int
        var isWildcard: Bool
    }

    static let plainRoot = 0
    static let hostRoot = 1

    private(set) var nodes: [Node] = [Node(), Node()]
    private var edges: [Edge] = []
    private var keyBytes: [UInt8] = []
    /// Edge numbers by hash, -1 when empty; a power of two in size, at most half full.
    private var slots: [Int] = []

    /// Stores `entry` under `pattern` with `rank`.
    mutating func insert(_ pattern: CompiledPattern, rank: RouteRank, entry: Int) -> Location {
        // Every node on the way gets the rank as a bound as it is passed: no list of visited nodes to allocate.
        var node: Int
        if let host = pattern.host {
            lowerBest(Self.hostRoot, to: rank)
            node = child(of: Self.hostRoot, literal: host.indexKey)
        } else {
            node = Self.plainRoot
        }
        var isWildcard = false
        for component in pattern.components {
            lowerBest(node, to: rank)
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
                isWildcard = true
            }
            if isWildcard { break }
        }
        lowerBest(node, to: rank)
        let leaf = Leaf(rank: rank, entry: entry)
        if isWildcard {
            Self.insertSorted(leaf, into: &nodes[node].wildcard)
        } else {
            Self.insertSorted(leaf, into: &nodes[node].terminal)
        }
        return Location(node: node, isWildcard: isWildcard)
    }

    private mutating func lowerBest(_ node: Int, to rank: RouteRank) {
        if rank < nodes[node].best { nodes[node].best = rank }
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

    // MARK: - Literal edges

    /// The child of `node` on the literal `key`, if any.
    func literalChild(of node: Int, _ key: UnsafeRawBufferPointer) -> Int? {
        guard !slots.isEmpty else { return nil }
        return literalChild(of: node, key, hash: Self.hash(node, key))
    }

    private func literalChild(of node: Int, _ key: UnsafeRawBufferPointer, hash: Int) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = hash & mask
        return keyBytes.withUnsafeBytes { stored in
            while true {
                let number = slots[slot]
                if number < 0 { return nil }
                let edge = edges[number]
                if edge.hash == hash, edge.parent == node, edge.keyCount == key.count,
                   key.count == 0 || memoryEqual(stored.baseAddress! + edge.keyStart, key.baseAddress!, key.count) {
                    return edge.child
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The child of `node` on the literal `key`, if any.
    func literalChild(of node: Int, _ key: [UInt8]) -> Int? {
        key.withUnsafeBytes { literalChild(of: node, $0) }
    }

    /// The children of `node` on literal edges, in no particular order.
    func literalChildren(of node: Int) -> [Int] {
        var children: [Int] = []
        var number = nodes[node].firstLiteral
        while number >= 0 {
            children.append(edges[number].child)
            number = edges[number].nextSibling
        }
        return children
    }

    private mutating func child(of node: Int, literal: [UInt8]) -> Int {
        let hash = literal.withUnsafeBytes { Self.hash(node, $0) }
        if let existing = literal.withUnsafeBytes({ literalChild(of: node, $0, hash: hash) }) { return existing }
        let child = nodes.count
        nodes.append(Node())
        if (edges.count + 1) * 2 > slots.count { grow() }
        edges.append(Edge(
            parent: node, child: child, hash: hash, keyStart: keyBytes.count, keyCount: literal.count,
            nextSibling: nodes[node].firstLiteral))
        keyBytes += literal
        nodes[node].firstLiteral = edges.count - 1
        place(edges.count - 1, hash: hash)
        return child
    }

    private mutating func grow() {
        slots = [Int](repeating: -1, count: max(16, slots.count * 2))
        for number in edges.indices { place(number, hash: edges[number].hash) }
    }

    private mutating func place(_ number: Int, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = number
    }

    /// A fast unseeded hash of the parent node and the key bytes, eight bytes at a time.
    private static func hash(_ node: Int, _ key: UnsafeRawBufferPointer) -> Int {
        var state = UInt64(truncatingIfNeeded: node) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(key.count)
        var offset = 0
        let count = key.count
        while offset + 8 <= count {
            state = (state ^ key.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            state ^= state >> 29
            offset += 8
        }
        if offset < count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < count {
                tail |= UInt64(key[offset]) << shift
                shift += 8
                offset += 1
            }
            state = (state ^ tail) &* 0xBF58_476D_1CE4_E5B9
        }
        state ^= state >> 32
        return Int(truncatingIfNeeded: state & 0x7FFF_FFFF_FFFF_FFFF)
    }

    private static func insertSorted(_ leaf: Leaf, into leaves: inout [Leaf]) {
        // Most nodes end one route: a one-element array is allocated directly, without the growth path of `insert`.
        guard !leaves.isEmpty else {
            leaves = [leaf]
            return
        }
        var low = 0
        var high = leaves.count
        while low < high {
            let middle = (low + high) / 2
            if leaves[middle].rank < leaf.rank { low = middle + 1 } else { high = middle }
        }
        leaves.insert(leaf, at: low)
    }
}

/// Byte equality of two buffers of `count` bytes (no Foundation needed for `memcmp`).
private func memoryEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ count: Int) -> Bool {
    var offset = 0
    while offset + 8 <= count {
        if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
            return false
        }
        offset += 8
    }
    while offset < count {
        if lhs.load(fromByteOffset: offset, as: UInt8.self) != rhs.load(fromByteOffset: offset, as: UInt8.self) { return false }
        offset += 1
    }
    return true
}
