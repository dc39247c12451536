/// The bit-parallel search for a run of tokens after a star that mixes `?`, a class or a code set with text: what
/// makes such a run cost the URL times its length divided by 64, rather than the URL times its length.
///
/// Shift-And over bytes, one bit per unit of the run (a literal byte, a `?`, a class, each byte of a code set): after
/// reading an input byte, bit `u` is set when some start reached the end of unit `u` exactly there. Three things
/// differ from the textbook form, each exact rather than approximate:
/// - a start is let in only at a character boundary reached from the search's first position (a walker that moves
///   once over the input), as the star only stops there;
/// - `?` takes one whole character (``GlobPattern/nextCharacter(_:_:_:)``), 1 to 4 bytes decided by the input byte it
///   starts on, so a start entering `?` at byte `i` reaches the end of that unit at `nextCharacter(i) - 1`; the bit
///   waits in one of four pending words until then (a character is at most 4 bytes);
/// - the last byte of a code set checks the whole value with one hash look-up on the bytes before it.
///
/// The first match to end is the leftmost one only when starts keep their order, which holds when every literal is
/// whole UTF-8 characters and every class ASCII (``Run/isAligned``): every start then stays on the same chain of
/// character boundaries, and stepping one character keeps two positions of a chain in order. Patterns read from a
/// file are always aligned (their text is a Swift string); a pattern of raw bytes that is not keeps the
/// position-by-position search. Whether a match ends exactly at the end does not depend on the order, so the run
/// after the last star always may use it.
extension GlobPattern {
    /// A run of tokens after a star, analysed once when the pattern is compiled.
    struct Run: Sendable {
        /// The tokens, up to the next star or the end.
        var tokens: Range<Int>
        /// Bit-parallel units: a literal's bytes, one per `?` and per class, a code set's length.
        var units = 0
        /// The bytes a match always spans, or `nil` when the run holds `?`.
        var fixedLength: Int? = 0
        /// The run is one literal, found with KMP.
        var isLiteral = false
        /// Literals are whole UTF-8 characters and classes ASCII, so the first match to end is the leftmost.
        var isAligned = true
        /// Code sets: one hash look-up per input byte each in the bit-parallel search.
        var codeSets = 0
        /// Classes: 256 table entries each to set up.
        var classes = 0
        /// The run holds no token that never matches.
        var canMatch = true

        /// 64-bit words of bit-parallel state.
        var words: Int { (units + 63) / 64 }

        /// What setting up the bit-parallel search costs; the position-by-position search hands over to it once it
        /// has spent as much, so a run that usually fails at its first token never pays for tables.
        var tableCost: Int { 256 * (words + classes) + units }

        init(_ range: Range<Int>, _ tokens: [Token], pool: [UInt8], codeSets sets: [CodeSet]) {
            self.tokens = range
            isLiteral = range.count == 1 && { if case .literal = tokens[range.lowerBound] { true } else { false } }()
            for t in range {
                switch tokens[t] {
                case .literal(let start, let count):
                    units += count
                    fixedLength? += count
                    if String(validating: pool[start..<(start + count)], as: UTF8.self) == nil { isAligned = false }
                case .anyCharacter:
                    units += 1
                    fixedLength = nil
                case .byteClass(let set):
                    units += 1
                    fixedLength? += 1
                    classes += 1
                    if !set.isASCII { isAligned = false }
                case .codeSet(let index):
                    guard let length = sets[index].lengths.first else { canMatch = false; continue }
                    units += length
                    fixedLength? += length
                    codeSets += 1
                case .never, .star, .alternation:
                    canMatch = false
                }
            }
        }
    }

    /// Bit-parallel search for `run` from the character boundary `p`.
    /// - Parameters:
    ///   - firstEnd: Return the end of the first match to end (the leftmost, for an aligned run); otherwise `end`
    ///     when a match ends exactly at `end`.
    ///   - steps: Adds the work done: the tables, then words and code-set look-ups per input byte.
    /// - Returns: The end found, or -1.
    func searchInParallel(
        _ run: Run, _ tokens: UnsafeBufferPointer<Token>, _ input: UnsafeBufferPointer<UInt8>, from p: Int,
        _ end: Int, _ pool: UnsafeBufferPointer<UInt8>, firstEnd: Bool, _ steps: inout Int
    ) -> Int {
        let words = run.words
        steps += run.tableCost
        var masks = [UInt64](repeating: 0, count: 256 * words)
        var anyByte = [UInt64](repeating: 0, count: words)
        var question = [UInt64](repeating: 0, count: words)
        var gates: [(set: Int, length: Int, word: Int, bit: UInt64)] = []
        var u = 0
        for t in run.tokens {
            switch tokens[t] {
            case .literal(let start, let count):
                for k in 0..<count {
                    masks[Int(pool[start + k]) * words + u >> 6] |= 1 << UInt64(u & 63)
                    u += 1
                }
            case .anyCharacter:
                question[u >> 6] |= 1 << UInt64(u & 63)
                u += 1
            case .byteClass(let set):
                for b in 0..<256 where set.contains(UInt8(b)) { masks[b * words + u >> 6] |= 1 << UInt64(u & 63) }
                u += 1
            case .codeSet(let index):
                let length = codeSets[index].lengths.first ?? 0
                if length == 0 {
                    // An empty value is all a zero-length set can hold.
                    guard codeSets[index].values.contains(CodeSet.pack([])) else { return -1 }
                    continue
                }
                for _ in 0..<length {
                    anyByte[u >> 6] |= 1 << UInt64(u & 63)
                    u += 1
                }
                gates.append((index, length, (u - 1) >> 6, 1 << UInt64((u - 1) & 63)))
            case .never, .star, .alternation:
                return -1
            }
        }
        let hasQuestion = question.contains { $0 != 0 }
        let lastWord = (run.units - 1) >> 6
        let lastBit = UInt64(1) << UInt64((run.units - 1) & 63)
        var state = [UInt64](repeating: 0, count: words)
        // Slot `i & 3` holds the `?` units that end on byte `i`.
        var pending = [UInt64](repeating: 0, count: 4 * words)
        var walker = p
        var i = p
        while i < end {
            while walker < i { walker = GlobPattern.nextCharacter(input, walker, end) }
            var carry: UInt64 = walker == i ? 1 : 0
            let row = Int(input[i]) * words
            let slot = (i & 3) * words
            let landing = hasQuestion ? ((GlobPattern.nextCharacter(input, i, end) - 1) & 3) * words : slot
            for k in 0..<words {
                let shifted = state[k] << 1 | carry
                carry = state[k] >> 63
                var next = shifted & (masks[row + k] | anyByte[k])
                let entering = shifted & question[k]
                if landing == slot { next |= entering } else { pending[landing + k] |= entering }
                state[k] = next | pending[slot + k]
                pending[slot + k] = 0
            }
            for gate in gates where state[gate.word] & gate.bit != 0 {
                let from = i + 1 - gate.length
                if from < p || !codeSets[gate.set].values.contains(CodeSet.pack(input, from, gate.length)) {
                    state[gate.word] &= ~gate.bit
                }
            }
            steps += words + gates.count
            i += 1
            if firstEnd, state[lastWord] & lastBit != 0 { return i }
        }
        if !firstEnd, p < end, state[lastWord] & lastBit != 0 { return end }
        return -1
    }
}
