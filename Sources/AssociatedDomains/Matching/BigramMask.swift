/// The set of adjacent byte pairs of some text, hashed into 256 bits: a filter that passes over rules whose
/// literal text cannot occur in a path, whatever their wildcards.
///
/// Every literal token of a glob appears verbatim in any input the glob matches, so each of its byte pairs is one
/// of the input's pairs: a rule whose mask has a bit the path's mask lacks cannot match. The converse does not
/// hold (hash collisions), so survivors are still matched for real. This is what keeps files whose rules share
/// their leading text (`/shop/*/item-1/*`, `/shop/*/item-2/*` ...) fast: their prefixes are alike, their pairs
/// are not.
struct BigramMask: Sendable, Equatable {
    var w0: UInt64 = 0
    var w1: UInt64 = 0
    var w2: UInt64 = 0
    var w3: UInt64 = 0

    @inline(__always)
    mutating func insert(_ first: UInt8, _ second: UInt8) {
        let bit = ((UInt32(first) << 8 | UInt32(second)) &* 0x9E37_79B1) >> 24
        let mask = UInt64(1) << UInt64(bit & 63)
        switch bit >> 6 {
        case 0: w0 |= mask
        case 1: w1 |= mask
        case 2: w2 |= mask
        default: w3 |= mask
        }
    }

    /// Adds the pairs of `bytes[start..<end]`.
    mutating func insertPairs(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        guard end - start >= 2 else { return }
        for k in start..<(end - 1) { insert(bytes[k], bytes[k + 1]) }
    }

    /// Whether every pair of `self` is also in `other`.
    @inline(__always)
    func isSubset(of other: BigramMask) -> Bool {
        (w0 & ~other.w0) | (w1 & ~other.w1) | (w2 & ~other.w2) | (w3 & ~other.w3) == 0
    }

    /// The pairs inside the literal tokens of `glob` (never across a wildcard).
    init(literalsOf glob: GlobPattern) {
        glob.pool.withUnsafeBufferPointer { pool in
            for token in glob.tokens {
                if case .literal(let start, let count) = token { insertPairs(pool, start, start + count) }
            }
        }
    }

    init() {}
}
