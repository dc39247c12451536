/// Strings of UTF-16 code units, each with payloads, found by what they are to a query: equal to it, a prefix of it
/// or a suffix of it. What lets a URL's host or path be looked up among tens of thousands of `android:host`,
/// `android:path`, `pathPrefix` and `pathSuffix` values instead of compared with each.
///
/// Equal strings are a dictionary. Prefixes (and suffixes, read from the end) are found in one pass over the query:
/// a polynomial hash of its first `k` units, updated unit by unit, is looked up for each `k` that some stored string
/// has, and a hit is then compared unit by unit, so a hash collision costs a comparison, never a wrong answer. The
/// hash is taken modulo the prime 2^61 − 1 with a base drawn at random for each index, so no input can be built to
/// collide in advance.
///
/// A query costs its length, plus the length of each stored string that hits and is compared: a string that is a
/// prefix of the query is compared once, so a query costs at most its length plus the stored text.
struct AffixIndex<Payload: Sendable>: Sendable {
    /// Which relation ``matches(_:)`` looks for.
    enum Mode: Sendable {
        /// Stored strings equal to the query.
        case exact
        /// Stored strings that start the query.
        case prefix
        /// Stored strings that end the query.
        case suffix
    }

    private struct Key: Hashable {
        var length: Int
        var hash: UInt64
    }

    let mode: Mode
    private var keys: [[UInt16]] = []
    private var payloads: [[Payload]] = []
    private var byText: [[UInt16]: Int] = [:]
    private var byHash: [Key: [Int]] = [:]
    /// The distinct lengths of the stored strings, shortest first.
    private let lengths: [Int]
    private let base: UInt64

    static var prime: UInt64 { (1 << 61) - 1 }

    /// Indexes `entries`: each string with its payload (a string given twice keeps both payloads, in order).
    init(_ mode: Mode, _ entries: [(units: [UInt16], payload: Payload)]) {
        self.mode = mode
        let base = UInt64.random(in: 256..<(AffixIndex.prime - 1))
        self.base = base
        var lengths: Set<Int> = []
        for (units, payload) in entries {
            if let at = byText[units] {
                payloads[at].append(payload)
                continue
            }
            let at = keys.count
            keys.append(units)
            payloads.append([payload])
            byText[units] = at
            guard mode != .exact else { continue }
            var hash: UInt64 = 0
            for k in 0..<units.count { hash = Self.step(hash, Self.unit(units, k, mode), base) }
            byHash[Key(length: units.count, hash: hash), default: []].append(at)
            lengths.insert(units.count)
        }
        self.lengths = lengths.sorted()
    }

    var isEmpty: Bool { keys.isEmpty }

    /// Calls `body` with the payloads of every stored string in the relation ``mode`` to `query`, shortest first.
    func forEachMatch(_ query: [UInt16], _ body: ([Payload]) -> Void) {
        if mode == .exact {
            if let at = byText[query] { body(payloads[at]) }
            return
        }
        guard !keys.isEmpty else { return }
        var hash: UInt64 = 0
        var k = 0
        for length in lengths {
            guard length <= query.count else { return }
            while k < length {
                hash = Self.step(hash, Self.unit(query, k, mode), base)
                k += 1
            }
            for at in byHash[Key(length: length, hash: hash)] ?? [] where isAffix(keys[at], of: query) {
                body(payloads[at])
            }
        }
    }

    /// The payloads of every stored string in the relation ``mode`` to `query`.
    func matches(_ query: [UInt16]) -> [Payload] {
        var found: [Payload] = []
        forEachMatch(query) { found += $0 }
        return found
    }

    /// The `k`-th unit in the order the mode reads: from the start, or from the end for suffixes.
    @inline(__always)
    private static func unit(_ units: [UInt16], _ k: Int, _ mode: Mode) -> UInt64 {
        UInt64(mode == .suffix ? units[units.count - 1 - k] : units[k])
    }

    @inline(__always)
    private static func step(_ hash: UInt64, _ unit: UInt64, _ base: UInt64) -> UInt64 {
        let product = hash.multipliedFullWidth(by: base)
        // (high·2^64 + low) mod (2^61 − 1), with 2^61 ≡ 1.
        let low = product.low & AffixIndex.prime
        let high = (product.low >> 61) | (product.high << 3)
        var sum = low + high + unit + 1
        while sum >= AffixIndex.prime { sum -= AffixIndex.prime }
        return sum
    }

    private func isAffix(_ key: [UInt16], of query: [UInt16]) -> Bool {
        guard key.count <= query.count else { return false }
        switch mode {
        case .exact: return key == query
        case .prefix: return query[..<key.count].elementsEqual(key)
        case .suffix: return query[(query.count - key.count)...].elementsEqual(key)
        }
    }
}
