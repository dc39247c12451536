/// The rules of one detail grouped by the literal text their path must start with, so a URL only visits the rules
/// whose prefix its path actually starts with (plus those without a path or prefix).
///
/// A rule's literal prefix (see ``AppLinkMatcher``'s prefix filters) must be a prefix of the path variant it is
/// compared with. The rules are bucketed by (variant, prefix length, hash of the prefix bytes); a URL looks up its
/// own path's prefix once per distinct (variant, length) shape, typically a dozen lookups for a thousand rules.
/// Buckets only narrow the list: every candidate still goes through the full filter and match, so a hash collision
/// costs a wasted check, never a wrong answer. Candidates come back in rule order, keeping first-match-wins.
struct PrefixIndex: Sendable {
    struct Shape: Sendable, Hashable {
        var variant: Int
        var length: Int
    }

    /// Distinct (variant, prefix length) pairs among the rules with a path, shortest first.
    private let shapes: [Shape]
    private let buckets: [UInt64: [Int]]
    /// Rules without a path pattern: candidates for every URL.
    private let always: [Int]

    /// Indexing pays from about this many rules on; smaller details are scanned.
    static let minimumRuleCount = 16

    /// - Parameter rules: per rule in order, `nil` when it has no path, else its variant and literal prefix.
    init(_ rules: [(variant: Int, prefix: ArraySlice<UInt8>)?]) {
        var shapes: Set<Shape> = []
        var buckets: [UInt64: [Int]] = [:]
        var always: [Int] = []
        for (index, rule) in rules.enumerated() {
            guard let rule else {
                always.append(index)
                continue
            }
            shapes.insert(Shape(variant: rule.variant, length: rule.prefix.count))
            let key = Array(rule.prefix).withUnsafeBufferPointer {
                Self.key(variant: rule.variant, $0, 0, $0.count)
            }
            buckets[key, default: []].append(index)
        }
        self.shapes = shapes.sorted { ($0.length, $0.variant) < ($1.length, $1.variant) }
        self.buckets = buckets
        self.always = always
    }

    /// FNV-1a over the variant, the length and the bytes.
    @inline(__always)
    static func key(variant: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        hash = (hash ^ UInt64(variant)) &* 0x100_0000_01b3
        hash = (hash ^ UInt64(count)) &* 0x100_0000_01b3
        for k in start..<(start + count) {
            hash = (hash ^ UInt64(bytes[k])) &* 0x100_0000_01b3
        }
        return hash
    }

    /// The indexes of the rules whose prefix may start the path, in rule order.
    /// - Parameters:
    ///   - paths: the path variants the matcher prepared, one after the other.
    ///   - offsets: where variant `v` lies in `paths`: `offsets[v]..<offsets[v + 1]`.
    func candidates(_ paths: UnsafeBufferPointer<UInt8>, _ offsets: [Int]) -> [Int] {
        var lists: [[Int]] = always.isEmpty ? [] : [always]
        for shape in shapes {
            let start = offsets[shape.variant]
            guard offsets[shape.variant + 1] - start >= shape.length else { continue }
            if let list = buckets[Self.key(variant: shape.variant, paths, start, shape.length)] { lists.append(list) }
        }
        if lists.count == 1 { return lists[0] }
        var merged = lists.flatMap { $0 }
        merged.sort()
        return merged
    }
}
