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
///
/// Compact, because a whole route table stays in memory: a node is 32 bytes and a literal edge 24 (32-bit numbers), a
/// route's leaf is stored in one shared array, and only a node where several routes end has an array of its own.
/// The 32-bit numbers bound a namespace to ``maximumCount`` nodes, edges and literal bytes; ``canInsert(_:)`` says
/// whether a pattern still fits, and the router refuses a route that does not (a `tooLarge` diagnostic), long before
/// memory would.
struct SegmentIndex: Sendable {
    /// One registered route as the index knows it.
    struct Leaf: Sendable {
        var rank: RouteRank
        var entry: Int
    }

    struct Node: Sendable {
        /// The first of this node's literal edges (``Edge/nextSibling`` links the rest), or -1.
        fileprivate(set) var firstLiteral: Int32 = -1
        /// The child for variables, or -1.
        fileprivate(set) var variableChild: Int32 = -1
        /// The routes ending here and the routes with `*` here, each sorted by rank: -1 for none, `n >= 0` for the
        /// single leaf `leaves[n]`, `n <= -2` for the list `leafLists[-2 - n]`.
        fileprivate var terminal: Int32 = -1
        fileprivate var wildcard: Int32 = -1
        /// A lower bound for the rank of every leaf below (never raised by a removal, which keeps it a bound).
        fileprivate(set) var best: RouteRank = .last

        /// Whether the node has literal children.
        var hasLiterals: Bool { firstLiteral >= 0 }
        /// The child for variables, if any.
        var variable: Int? { variableChild >= 0 ? Int(variableChild) : nil }
    }

    /// A literal edge: `parent` to `child` on the bytes `keyBytes[keyStart..<keyStart + keyCount]`.
    private struct Edge: Sendable {
        var parent: Int32
        var child: Int32
        /// The low 32 bits of the key's hash: the slot table never has more than 2^32 slots.
        var hash: UInt32
        var keyStart: UInt32
        var keyCount: UInt32
        var nextSibling: Int32
    }

    /// Where a route was stored, to remove it again.
    struct Location: Sendable, Hashable {
        private var storedNode: Int32
        var isWildcard: Bool

        init(node: Int, isWildcard: Bool) {
            storedNode = Int32(node)
            self.isWildcard = isWildcard
        }

        var node: Int { Int(storedNode) }
    }

    static let plainRoot = 0
    static let hostRoot = 1
    /// The most nodes, literal edges and literal key bytes one index holds: its numbers are 32-bit.
    static let maximumCount = Int(Int32.max)

    private(set) var nodes: [Node] = [Node(), Node()]
    private var edges: [Edge] = []
    private var keyBytes: [UInt8] = []
    /// Edge numbers by hash, -1 when empty; a power of two in size, at most half full.
    private var slots: [Int32] = []
    /// The leaves of nodes where one route of a kind ends (most nodes that end routes).
    private var leaves: [Leaf] = []
    /// The leaves of nodes where several routes of a kind end, sorted by rank.
    private var leafLists: [[Leaf]] = []
    /// What ``canInsert(_:)`` allows; lowered by tests.
    private let limit: Int

    init(limit: Int = Self.maximumCount) {
        self.limit = min(limit, Self.maximumCount)
    }

    /// The bytes the index's buffers take (their capacities times their elements' strides), what the tests bound
    /// per segment: deterministic, whatever else the process allocates.
    var allocatedBytes: Int {
        func bytes<Element>(_ array: [Element]) -> Int { array.capacity * MemoryLayout<Element>.stride }
        return bytes(nodes) + bytes(edges) + bytes(keyBytes) + bytes(slots) + bytes(leaves) + bytes(leafLists)
            + leafLists.reduce(0) { $0 + bytes($1) }
    }

    /// Whether `pattern` fits within the index's 32-bit numbers: at most one node and one edge a component (and
    /// one for the host), its literal bytes, and one leaf.
    func canInsert(_ pattern: CompiledPattern) -> Bool {
        let added = pattern.components.count + 1
        var bytes = pattern.host?.indexKey.count ?? 0
        for component in pattern.components where component.kind == .literal { bytes += component.bytes.count }
        return nodes.count + added <= limit && edges.count + added <= limit && keyBytes.count + bytes <= limit
            && leaves.count < limit && leafLists.count < limit
    }

    /// Stores `entry` under `pattern` with `rank`; ``canInsert(_:)`` must have allowed it.
    mutating func insert(_ pattern: CompiledPattern, rank: RouteRank, entry: Int) -> Location {
        // Every node on the way gets the rank as a bound as it is passed: no list of visited nodes to allocate.
        var node: Int
        if let host = pattern.host {
            lowerBest(Self.hostRoot, to: rank)
            node = host.indexKey.withUnsafeBytes { child(of: Self.hostRoot, literal: $0) }
        } else {
            node = Self.plainRoot
        }
        var isWildcard = false
        for component in pattern.components {
            lowerBest(node, to: rank)
            switch component.kind {
            case .literal:
                node = pattern.withBytes(of: component) { child(of: node, literal: $0) }
            case .variable:
                if let existing = nodes[node].variable {
                    node = existing
                } else {
                    nodes.append(Node())
                    nodes[node].variableChild = Int32(nodes.count - 1)
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
            nodes[node].wildcard = insertSorted(leaf, into: nodes[node].wildcard)
        } else {
            nodes[node].terminal = insertSorted(leaf, into: nodes[node].terminal)
        }
        return Location(node: node, isWildcard: isWildcard)
    }

    private mutating func lowerBest(_ node: Int, to rank: RouteRank) {
        if rank < nodes[node].best { nodes[node].best = rank }
    }

    /// Removes `entry` from where ``insert(_:rank:entry:)`` put it.
    mutating func remove(entry: Int, at location: Location) {
        let reference = location.isWildcard ? nodes[location.node].wildcard : nodes[location.node].terminal
        var remaining = reference
        if reference >= 0 {
            // A single leaf's slot in `leaves` stays unused: removals are rare and memory is bounded by insertions.
            if leaves[Int(reference)].entry == entry { remaining = -1 }
        } else if reference <= -2 {
            leafLists[Int(-2 - reference)].removeAll { $0.entry == entry }
        }
        if location.isWildcard {
            nodes[location.node].wildcard = remaining
        } else {
            nodes[location.node].terminal = remaining
        }
    }

    /// The routes ending at `node` (`*` routes when `wildcard`), best rank first; a slice of a shared array, no copy.
    func leaves(of node: Int, wildcard: Bool) -> ArraySlice<Leaf> {
        let reference = wildcard ? nodes[node].wildcard : nodes[node].terminal
        if reference >= 0 { return leaves[Int(reference)...Int(reference)] }
        if reference <= -2 { return leafLists[Int(-2 - reference)][...] }
        return []
    }

    /// Whether routes of a kind end at `node` (no slice made).
    func hasLeaves(at node: Int, wildcard: Bool) -> Bool {
        let reference = wildcard ? nodes[node].wildcard : nodes[node].terminal
        return reference >= 0 || (reference <= -2 && !leafLists[Int(-2 - reference)].isEmpty)
    }

    /// The leaves stored at one location, best rank first (diagnostics use it to find duplicates).
    func leaves(at location: Location) -> [Leaf] {
        Array(leaves(of: location.node, wildcard: location.isWildcard))
    }

    /// `leaf` added to the leaves `reference` names, which is returned updated.
    private mutating func insertSorted(_ leaf: Leaf, into reference: Int32) -> Int32 {
        // Most nodes end one route: it goes into the shared array, with no array of its own.
        if reference == -1 {
            leaves.append(leaf)
            return Int32(leaves.count - 1)
        }
        var list: Int
        if reference >= 0 {
            leafLists.append([leaves[Int(reference)]])
            list = leafLists.count - 1
        } else {
            list = Int(-2 - reference)
        }
        var low = 0
        var high = leafLists[list].count
        while low < high {
            let middle = (low + high) / 2
            if leafLists[list][middle].rank < leaf.rank { low = middle + 1 } else { high = middle }
        }
        leafLists[list].insert(leaf, at: low)
        return Int32(-2 - list)
    }

    // MARK: - Literal edges

    /// The child of `node` on the literal `key`, if any.
    func literalChild(of node: Int, _ key: UnsafeRawBufferPointer) -> Int? {
        guard !slots.isEmpty else { return nil }
        return literalChild(of: node, key, hash: Self.hash(node, key))
    }

    private func literalChild(of node: Int, _ key: UnsafeRawBufferPointer, hash: UInt32) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        let parent = Int32(truncatingIfNeeded: node)
        return keyBytes.withUnsafeBytes { stored in
            while true {
                let number = slots[slot]
                if number < 0 { return nil }
                let edge = edges[Int(number)]
                if edge.hash == hash, edge.parent == parent, Int(edge.keyCount) == key.count,
                   key.count == 0 || memoryEqual(stored.baseAddress! + Int(edge.keyStart), key.baseAddress!, key.count) {
                    return Int(edge.child)
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The child of `node` on the literal bytes of `component` of `pattern`, if any.
    func literalChild(of node: Int, _ component: CompiledPattern.Component, in pattern: CompiledPattern) -> Int? {
        pattern.withBytes(of: component) { literalChild(of: node, $0) }
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
            children.append(Int(edges[Int(number)].child))
            number = edges[Int(number)].nextSibling
        }
        return children
    }

    private mutating func child(of node: Int, literal: UnsafeRawBufferPointer) -> Int {
        let hash = Self.hash(node, literal)
        if let existing = literalChild(of: node, literal, hash: hash) { return existing }
        let child = nodes.count
        nodes.append(Node())
        if (edges.count + 1) * 2 > slots.count { grow() }
        edges.append(Edge(
            parent: Int32(node), child: Int32(child), hash: hash, keyStart: UInt32(keyBytes.count),
            keyCount: UInt32(literal.count), nextSibling: nodes[node].firstLiteral))
        keyBytes.append(contentsOf: literal)
        nodes[node].firstLiteral = Int32(edges.count - 1)
        place(edges.count - 1, hash: hash)
        return child
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: max(16, slots.count * 2))
        for number in edges.indices { place(number, hash: edges[number].hash) }
    }

    private mutating func place(_ number: Int, hash: UInt32) {
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(number)
    }

    /// A fast unseeded hash of the parent node and the key bytes, eight bytes at a time; 32 bits of it, as the
    /// slot table has at most 2^32 slots (twice ``maximumCount`` edges, rounded up to a power of two).
    private static func hash(_ node: Int, _ key: UnsafeRawBufferPointer) -> UInt32 {
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
        return UInt32(truncatingIfNeeded: state)
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
