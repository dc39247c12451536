/// A compiled AASA glob: anchored, `*` is any run of characters (`/` included), `?` exactly one character,
/// `$(name)` any one value of a substitution variable; no escaping.
///
/// Compiled once when a matcher is built. Matching works on UTF-8 bytes; a "character" for `?` and for the
/// steps of `*` is one Unicode scalar (a stray byte of invalid UTF-8 counts as one character). Case-insensitive
/// patterns are compiled folded to ASCII lower case and must be given folded input.
///
/// A final class with trivially copyable tokens (literals live in one byte pool, sets and alternatives in side
/// tables), so the matching loop does no reference counting.
final class GlobPattern: Sendable {
    enum Token: Sendable {
        case literal(start: Int, count: Int)
        case anyCharacter
        case star
        case byteClass(ByteSet)
        case codeSet(Int)
        case alternation(Int)
        case never

        var isStar: Bool { if case .star = self { true } else { false } }
    }

    /// Literal alternatives of at most 7 bytes, packed into integers for a hash lookup.
    struct CodeSet: Sendable {
        var lengths: [Int]
        var values: Set<UInt64>

        static func pack(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> UInt64 {
            var v = UInt64(length) << 56
            for k in 0..<length {
                v |= UInt64(input[start + k]) << UInt64(8 * k)
            }
            return v
        }

        static func pack(_ bytes: [UInt8]) -> UInt64 {
            bytes.withUnsafeBufferPointer { pack($0, 0, bytes.count) }
        }
    }

    let tokens: [Token]
    /// The bytes of every literal token.
    let pool: [UInt8]
    let codeSets: [CodeSet]
    let alternations: [[GlobPattern]]
    /// No token can match input of more than one length at a given position: the segment algorithm applies.
    let isDeterministic: Bool
    /// For each literal token of two bytes or more, its KMP failure function, at the token's offsets in ``pool``
    /// (empty for a deterministic pattern with fewer than two stars, which never searches for a literal):
    /// the length of the longest proper border of the literal's first k + 1 bytes. A literal between two stars is
    /// found with it in one pass over the input, whatever the literal's length.
    let failures: [Int32]
    /// For each star, the run of tokens after it (up to the next star or the end), analysed for its search; the
    /// star itself is the token before the run.
    let runs: [Run]
    /// An upper bound on the steps matching takes per byte of input, beyond one pass: the budget counts it (see
    /// ``SubstitutionVariables/maximumPatternWork``).
    ///
    /// A literal between stars costs nothing more (KMP), nor does a run of fixed length at the end; any other run
    /// after a star is tried at each place, so it costs one step per unit of it (a literal byte, a `?`, a class, a
    /// variable's value). A pattern whose variables can match several lengths is simulated: one step per token,
    /// each alternative's tokens counted.
    let work: Int
    /// The pattern was refused for the budget on ``work``: it compiled to one token that never matches.
    let exceedsWorkBudget: Bool
    /// Names in `$(name)` that are neither custom nor built-in; such a pattern never matches.
    let undefinedVariables: [String]
    /// Names in `$(name)` refused for the file's budget (``SubstitutionVariables/maximumAlternativeUses``); such a
    /// pattern never matches.
    let overBudgetVariables: [String]
    /// The length of ``literalPrefix``.
    private let literalPrefixCount: Int
    /// The pattern's literal text up to its first wildcard or variable (folded if case-insensitive).
    var literalPrefix: ArraySlice<UInt8> { pool[0..<literalPrefixCount] }
    /// The pattern's literal text after its last wildcard or variable (empty when it ends with one).
    var literalSuffix: ArraySlice<UInt8> {
        guard case .literal(let start, let count)? = tokens.last else { return [] }
        return pool[start..<(start + count)]
    }
    /// The pattern is only stars: it matches anything.
    let matchesEverything: Bool

    /// Compiles a pattern.
    /// - Parameters:
    ///   - text: The pattern's bytes.
    ///   - variables: The file's custom substitution variables (they take precedence over built-ins), compiled once
    ///     and shared by every pattern of the file; `nil` inside a variable value, where variables are not expanded.
    ///   - caseInsensitive: Fold the pattern to ASCII lower case.
    init<C: Collection<UInt8>>(_ text: C, variables: SubstitutionVariables?, caseInsensitive: Bool)
    where C.Index == Int {
        var tokens: [Token] = []
        tokens.reserveCapacity(4)
        // Literal bytes go straight into the pool; the run since `literalStart` becomes one token when it ends.
        var pool: [UInt8] = []
        pool.reserveCapacity(text.count)
        var codeSets: [CodeSet] = []
        var alternations: [[GlobPattern]] = []
        var undefined: [String] = []
        var overBudget: [String] = []
        var literalStart = 0
        // The pool's size when the first wildcard or variable ended the literal prefix.
        var prefixEnd: Int?
        func flush() {
            if pool.count > literalStart {
                tokens.append(.literal(start: literalStart, count: pool.count - literalStart))
                literalStart = pool.count
            }
        }
        func closePrefix() {
            flush()
            if prefixEnd == nil { prefixEnd = pool.count }
        }
        var i = text.startIndex
        while i < text.endIndex {
            let b = text[i]
            switch b {
            case UInt8(ascii: "*"):
                closePrefix()
                if case .star? = tokens.last {} else { tokens.append(.star) }
                i += 1
            case UInt8(ascii: "?"):
                closePrefix()
                tokens.append(.anyCharacter)
                i += 1
            case UInt8(ascii: "$") where variables != nil && i + 1 < text.endIndex && text[i + 1] == UInt8(ascii: "("):
                // A variable name runs to the next ')' and contains no '$' or '('; otherwise the text is literal.
                var j = i + 2
                while j < text.endIndex, text[j] != UInt8(ascii: ")"), text[j] != UInt8(ascii: "$"),
                      text[j] != UInt8(ascii: "(") {
                    j += 1
                }
                guard j < text.endIndex, text[j] == UInt8(ascii: ")") else {
                    pool.append(caseInsensitive ? ASCII.lower(b) : b)
                    i += 1
                    continue
                }
                closePrefix()
                let name = String(decoding: text[(i + 2)..<j], as: UTF8.self)
                switch variables?.lookUp(name, caseInsensitive: caseInsensitive) ?? .undefined {
                case .matcher(.byteClass(let set)):
                    tokens.append(.byteClass(set))
                case .matcher(.codeSet(let set)):
                    tokens.append(.codeSet(codeSets.count))
                    codeSets.append(set)
                case .matcher(.alternatives(let alternatives)):
                    tokens.append(.alternation(alternations.count))
                    alternations.append(alternatives)
                case .undefined:
                    undefined.append(name)
                    tokens.append(.never)
                case .overBudget:
                    overBudget.append(name)
                    tokens.append(.never)
                }
                i = j + 1
            default:
                // The literal bytes up to the next one that may start a wildcard or a variable, at once.
                var j = i + 1
                while j < text.endIndex, text[j] != UInt8(ascii: "*"), text[j] != UInt8(ascii: "?"),
                      text[j] != UInt8(ascii: "$") {
                    j += 1
                }
                if caseInsensitive {
                    pool.append(contentsOf: text[i..<j].lazy.map(ASCII.lower))
                } else {
                    pool.append(contentsOf: text[i..<j])
                }
                i = j
            }
        }
        flush()
        var prefixCount = prefixEnd ?? pool.count
        var deterministic = true
        // Each star's run ends at the next star or at the end.
        var runs: [Run] = []
        var star: Int?
        for t in 0...tokens.count {
            if t < tokens.count {
                if case .codeSet(let index) = tokens[t], codeSets[index].lengths.count > 1 { deterministic = false }
                if case .alternation = tokens[t] { deterministic = false }
                guard tokens[t].isStar else { continue }
            }
            if let star { runs.append(Run((star + 1)..<t, tokens, codeSets: codeSets)) }
            star = t
        }
        let work = deterministic
            ? GlobPattern.searchWork(runs)
            : tokens.reduce(0) { sum, token in
                guard case .alternation(let index) = token else { return sum + 1 }
                return sum + alternations[index].reduce(0) { $0 + $1.tokens.count }
            }
        self.work = work
        // A variable's value (no `variables`) is counted in the pattern that uses it, never refused alone.
        let refused = !(variables?.chargeWork(work) ?? true)
        self.exceedsWorkBudget = refused
        if refused {
            tokens = [.never]
            pool = []
            codeSets = []
            alternations = []
            prefixCount = 0
            runs = []
            deterministic = true
        }
        self.tokens = tokens
        self.pool = pool
        self.codeSets = codeSets
        self.alternations = alternations
        self.undefinedVariables = undefined
        self.overBudgetVariables = overBudget
        self.literalPrefixCount = prefixCount
        self.matchesEverything = tokens.count == 1 && tokens[0].isStar
        self.isDeterministic = deterministic
        self.runs = runs
        // Only literals searched for need the table: those between two stars, and any in a simulated pattern
        // (a variable's value is simulated as an alternative). The usual `/path` and `/path/*` allocate none.
        let searches = !deterministic || runs.count >= 2 || variables == nil
        var failures = [Int32](repeating: 0, count: searches ? pool.count : 0)
        for token in searches ? tokens : [] {
            guard case .literal(let start, let count) = token, count > 1 else { continue }
            var border = 0
            for k in 1..<count {
                while border > 0, pool[start + k] != pool[start + border] { border = Int(failures[start + border - 1]) }
                if pool[start + k] == pool[start + border] { border += 1 }
                failures[start + k] = Int32(border)
            }
        }
        self.failures = failures
    }

    convenience init(_ text: String, variables: SubstitutionVariables?, caseInsensitive: Bool) {
        self.init(Array(text.utf8), variables: variables, caseInsensitive: caseInsensitive)
    }

    /// Compiles a pattern alone, with its own variables (tests and one-off comparisons).
    convenience init(_ text: String, variables: [String: [String]], caseInsensitive: Bool) {
        self.init(Array(text.utf8), variables: SubstitutionVariables(variables), caseInsensitive: caseInsensitive)
    }

    /// The ``work`` of a deterministic pattern: what its runs after stars cost per input byte beyond one pass.
    private static func searchWork(_ runs: [Run]) -> Int {
        var work = 0
        for (s, run) in runs.enumerated() where run.canMatch && !run.isLiteral && run.units > 0 {
            if s == runs.count - 1 && run.fixedLength != nil { continue }
            work += run.units
        }
        return work
    }

    /// A run of tokens after a star, analysed once when the pattern is compiled.
    struct Run: Sendable {
        /// The tokens, up to the next star or the end.
        var tokens: Range<Int>
        /// What trying the run at one place costs at most: a literal's bytes, one per `?` and per class, a variable
        /// value's length.
        var units = 0
        /// The bytes a match always spans, or `nil` when the run holds `?`.
        var fixedLength: Int? = 0
        /// The run is one literal, found with KMP.
        var isLiteral = false
        /// The run holds no token that never matches.
        var canMatch = true

        init(_ range: Range<Int>, _ tokens: [Token], codeSets sets: [CodeSet]) {
            self.tokens = range
            isLiteral = range.count == 1 && { if case .literal = tokens[range.lowerBound] { true } else { false } }()
            for t in range {
                switch tokens[t] {
                case .literal(_, let count):
                    units += count
                    fixedLength? += count
                case .anyCharacter:
                    units += 1
                    fixedLength = nil
                case .byteClass:
                    units += 1
                    fixedLength? += 1
                case .codeSet(let index):
                    guard let length = sets[index].lengths.first else { canMatch = false; continue }
                    units += length
                    fixedLength? += length
                case .never, .star, .alternation:
                    canMatch = false
                }
            }
        }
    }

    /// The names of the built-in substitution variables.
    static let builtInVariableNames: Set<String> = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]

    private static let upper = ByteSet(UInt8(ascii: "A")...UInt8(ascii: "Z"))
    private static let lower = ByteSet(UInt8(ascii: "a")...UInt8(ascii: "z"))
    private static let digits = ByteSet(UInt8(ascii: "0")...UInt8(ascii: "9"))
    private static let regionSet = makeCodeSet(ISOCodes.regions.map { Array($0.utf8) }, caseInsensitive: false)
    private static let regionSetFolded = makeCodeSet(ISOCodes.regions.map { Array($0.utf8) }, caseInsensitive: true)
    private static let languageSet = makeCodeSet(ISOCodes.languages.map { Array($0.utf8) }, caseInsensitive: false)
    private static let languageSetFolded = makeCodeSet(
        ISOCodes.languages.map { Array($0.utf8) }, caseInsensitive: true)

    static func makeCodeSet(_ values: [[UInt8]], caseInsensitive: Bool) -> CodeSet {
        var lengths = Set<Int>()
        var packed = Set<UInt64>()
        for value in values {
            lengths.insert(value.count)
            packed.insert(CodeSet.pack(caseInsensitive ? ASCII.lowered(value) : value))
        }
        return CodeSet(lengths: lengths.sorted(by: >), values: packed)
    }

    /// The compiled form of a built-in variable, or `nil` for any other name.
    static func builtInVariable(_ name: String, caseInsensitive: Bool) -> SubstitutionVariables.Matcher? {
        func byteClass(_ set: ByteSet) -> SubstitutionVariables.Matcher { .byteClass(caseInsensitive ? set.folded : set) }
        var alpha = upper
        for b in UInt8(ascii: "a")...UInt8(ascii: "z") { alpha.insert(b) }
        switch name {
        case "alpha": return byteClass(alpha)
        case "upper": return byteClass(upper)
        case "lower": return byteClass(lower)
        case "alnum":
            var set = alpha
            for b in UInt8(ascii: "0")...UInt8(ascii: "9") { set.insert(b) }
            return byteClass(set)
        case "digit": return byteClass(digits)
        case "xdigit":
            var set = digits
            for b in UInt8(ascii: "a")...UInt8(ascii: "f") { set.insert(b) }
            for b in UInt8(ascii: "A")...UInt8(ascii: "F") { set.insert(b) }
            return byteClass(set)
        case "region": return .codeSet(caseInsensitive ? regionSetFolded : regionSet)
        case "lang": return .codeSet(caseInsensitive ? languageSetFolded : languageSet)
        default: return nil
        }
    }

    // MARK: Matching

    /// Whether the pattern matches all of `input[start..<end]`.
    func matches(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var steps = 0
        return matches(input, start, end, steps: &steps)
    }

    /// Whether the pattern matches all of `input[start..<end]`, adding the work done to `steps` (what the tests
    /// hold to ``work`` per input byte).
    func matches(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, steps: inout Int) -> Bool {
        pool.withUnsafeBufferPointer { pool in
            // The segment search needs no position sets: a file's rules match in half the time or less than simulated.
            if isDeterministic {
                return matchSegments(input, start, end, pool, &steps)
            }
            return matchesBySimulation(input, start, end, pool, &steps)
        }
    }

    /// The set simulation, for any pattern: the reference the segment algorithm is checked against by
    /// `.ci/fuzz aasa-variables`.
    func matchesBySimulation(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var steps = 0
        return pool.withUnsafeBufferPointer { matchesBySimulation(input, start, end, $0, &steps) }
    }

    private func matchesBySimulation(
        _ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ pool: UnsafeBufferPointer<UInt8>,
        _ steps: inout Int
    ) -> Bool {
        var initial = PositionSet(count: end - start + 1)
        initial.insert(0)
        return simulate(input, start, end, pool, from: initial, &steps).contains(end - start)
    }

    /// Whether the pattern matches all of `bytes`.
    func matches(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { matches($0, 0, $0.count) }
    }

    /// Whether the pattern matches all of `bytes`, adding the work done to `steps`.
    func matches(_ bytes: [UInt8], steps: inout Int) -> Bool {
        bytes.withUnsafeBufferPointer { matches($0, 0, $0.count, steps: &steps) }
    }

    /// The index after the character (Unicode scalar, or one stray byte) that starts at `p`.
    @inline(__always)
    static func nextCharacter(_ input: UnsafeBufferPointer<UInt8>, _ p: Int, _ end: Int) -> Int {
        let b = input[p]
        var q = p + 1
        if b >= 0xC0 {
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            let limit = min(p + length, end)
            while q < limit, input[q] & 0xC0 == 0x80 { q += 1 }
        }
        return q
    }

    /// Matches one non-star token at `p`; returns the index after it, or -1.
    @inline(__always)
    private func step(
        _ token: Token, _ input: UnsafeBufferPointer<UInt8>, _ p: Int, _ end: Int, _ pool: UnsafeBufferPointer<UInt8>
    ) -> Int {
        switch token {
        case .literal(let start, let count):
            guard end - p >= count else { return -1 }
            for k in 0..<count where input[p + k] != pool[start + k] { return -1 }
            return p + count
        case .anyCharacter:
            return p < end ? GlobPattern.nextCharacter(input, p, end) : -1
        case .byteClass(let set):
            return p < end && set.contains(input[p]) ? p + 1 : -1
        case .codeSet(let index):
            let set = codeSets[index]
            guard let length = set.lengths.first, end - p >= length else { return -1 }
            return set.values.contains(CodeSet.pack(input, p, length)) ? p + length : -1
        case .never, .star, .alternation:
            return -1
        }
    }

    /// For deterministic patterns: the tokens before the first `*` must match at the start; each run of tokens
    /// between two stars is matched at its leftmost place after the previous one; the run after the last star must
    /// end exactly at the end. That is what the classic last-star backtracking algorithm decides, without its
    /// backtracking, and each run's search starts where the previous one ended, so the searches share one pass over
    /// the input:
    /// - a run that is one literal (the usual case, and one a hostile file makes long) is found with KMP: O(input);
    /// - a run of fixed length after the last star is compared once, at the only place it can start;
    /// - any other run (one that mixes `?`, a class or a code set with text) is tried place by place:
    ///   O(input × run), its units counted in ``work``.
    ///
    /// So the whole match is O(input × (1 + ``work``)), and the budget caps ``work``.
    ///
    /// A star stops only at character boundaries (see ``nextCharacter(_:_:_:)``); a byte that is not a UTF-8
    /// continuation byte is always one, so only a literal starting with a continuation byte needs the walk.
    private func matchSegments(
        _ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ pool: UnsafeBufferPointer<UInt8>,
        _ steps: inout Int
    ) -> Bool {
        tokens.withUnsafeBufferPointer { tokens in
            var p = start
            let firstStar = runs.first.map { $0.tokens.lowerBound - 1 } ?? tokens.count
            for t in 0..<firstStar {
                p = step(tokens[t], input, p, end, pool)
                if p < 0 { return false }
            }
            steps += firstStar
            guard !runs.isEmpty else { return p == end }
            for s in 0..<(runs.count - 1) {
                p = leftmost(runs[s], tokens, input, from: p, end, pool, &steps)
                if p < 0 { return false }
            }
            return endsRun(runs[runs.count - 1], tokens, input, from: p, end, pool, &steps)
        }
    }

    /// Matches the tokens of `run` at `p`; the index after them, or -1. Adds the tokens and literal bytes tried.
    @inline(__always)
    private func matchRun(
        _ run: Range<Int>, _ tokens: UnsafeBufferPointer<Token>, _ input: UnsafeBufferPointer<UInt8>, at p: Int,
        _ end: Int, _ pool: UnsafeBufferPointer<UInt8>, _ steps: inout Int
    ) -> Int {
        var q = p
        for t in run {
            if case .literal(_, let count) = tokens[t] { steps += count } else { steps += 1 }
            q = step(tokens[t], input, q, end, pool)
            if q < 0 { return -1 }
        }
        return q
    }

    /// The end of the leftmost match of `run` at a character boundary reached from `p`, or -1.
    private func leftmost(
        _ run: Run, _ tokens: UnsafeBufferPointer<Token>, _ input: UnsafeBufferPointer<UInt8>, from p: Int,
        _ end: Int, _ pool: UnsafeBufferPointer<UInt8>, _ steps: inout Int
    ) -> Int {
        if run.isLiteral, case .literal(let literalStart, let count) = tokens[run.tokens.lowerBound] {
            return findLiteral(literalStart, count, input, from: p, end, pool, &steps)
        }
        guard run.canMatch else { return -1 }
        var q = p
        while true {
            let e = matchRun(run.tokens, tokens, input, at: q, end, pool, &steps)
            if e >= 0 { return e }
            guard q < end else { return -1 }
            q = GlobPattern.nextCharacter(input, q, end)
        }
    }

    /// The end of the first occurrence of the literal `pool[literalStart..<literalStart + count]` in
    /// `input[p..<end]` that starts at a character boundary reached from `p`, or -1: KMP, one pass.
    private func findLiteral(
        _ literalStart: Int, _ count: Int, _ input: UnsafeBufferPointer<UInt8>, from p: Int, _ end: Int,
        _ pool: UnsafeBufferPointer<UInt8>, _ steps: inout Int
    ) -> Int {
        let checksBoundary = pool[literalStart] & 0xC0 == 0x80
        var walker = p
        let found = failures.withUnsafeBufferPointer { failures in
            var matched = 0
            var i = p
            while i < end {
                let b = input[i]
                while matched > 0, b != pool[literalStart + matched] {
                    matched = Int(failures[literalStart + matched - 1])
                }
                if b == pool[literalStart + matched] { matched += 1 }
                i += 1
                if matched == count {
                    let occurrence = i - count
                    if !checksBoundary { return i }
                    while walker < occurrence { walker = GlobPattern.nextCharacter(input, walker, end) }
                    if walker == occurrence { return i }
                    matched = count > 1 ? Int(failures[literalStart + count - 1]) : 0
                }
            }
            return -1
        }
        // KMP's fallbacks are paid for by its advances: at most two steps per byte read.
        steps += 2 * ((found < 0 ? end : found) - p)
        return found
    }

    /// Whether `run` matches, from a character boundary reached from `p`, exactly up to `end`.
    private func endsRun(
        _ run: Run, _ tokens: UnsafeBufferPointer<Token>, _ input: UnsafeBufferPointer<UInt8>, from p: Int,
        _ end: Int, _ pool: UnsafeBufferPointer<UInt8>, _ steps: inout Int
    ) -> Bool {
        if run.tokens.isEmpty { return true }
        guard run.canMatch else { return false }
        // A run of fixed byte length can only start `length` bytes before the end.
        if let length = run.fixedLength {
            let q = end - length
            guard q >= p else { return false }
            if q < end, input[q] & 0xC0 == 0x80 {
                var walker = p
                while walker < q { walker = GlobPattern.nextCharacter(input, walker, end) }
                steps += q - p
                if walker != q { return false }
            }
            return matchRun(run.tokens, tokens, input, at: q, end, pool, &steps) == end
        }
        var q = p
        while true {
            if matchRun(run.tokens, tokens, input, at: q, end, pool, &steps) == end { return true }
            guard q < end else { return false }
            q = GlobPattern.nextCharacter(input, q, end)
        }
    }

    /// Input positions (offsets from the start of the matched range), as a bit set.
    struct PositionSet {
        private var words: [UInt64]
        let count: Int

        init(count: Int) {
            self.count = count
            self.words = Array(repeating: 0, count: (count + 63) / 64)
        }

        func contains(_ i: Int) -> Bool {
            i < count && words[i >> 6] & (1 << UInt64(i & 63)) != 0
        }

        mutating func insert(_ i: Int) {
            words[i >> 6] |= 1 << UInt64(i & 63)
        }

        mutating func formUnion(_ other: PositionSet) {
            for k in 0..<words.count { words[k] |= other.words[k] }
        }

        var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

        /// How many positions are members.
        var population: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

        /// The smallest member, or `nil`.
        var first: Int? {
            for (k, word) in words.enumerated() where word != 0 { return k << 6 + word.trailingZeroBitCount }
            return nil
        }

        /// Calls `body` with each member in increasing order, skipping empty words.
        func forEach(_ body: (Int) -> Void) {
            for (k, word) in words.enumerated() where word != 0 {
                var w = word
                while w != 0 {
                    body(k << 6 + w.trailingZeroBitCount)
                    w &= w - 1
                }
            }
        }
    }

    /// For patterns whose tokens can match several lengths: a set simulation, token by token, of every input
    /// position the pattern so far can end at. No recursion and no backtracking, so any pattern against any
    /// input runs in tokens × input length steps (each alternative's tokens counted: that is ``work``) with
    /// memory for two position sets.
    private func simulate(
        _ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ pool: UnsafeBufferPointer<UInt8>,
        from initial: PositionSet, _ steps: inout Int
    ) -> PositionSet {
        let n = end - start
        var current = initial
        for token in tokens {
            if case .alternation = token {} else { steps += n + 1 }
            var next = PositionSet(count: n + 1)
            switch token {
            case .star:
                // Every character boundary reachable from a current position by whole characters.
                var pending = current
                if let first = current.first {
                    for q in first...n where pending.contains(q) {
                        next.insert(q)
                        if q < n { pending.insert(GlobPattern.nextCharacter(input, start + q, end) - start) }
                    }
                }
            case .codeSet(let index):
                let set = codeSets[index]
                current.forEach { p in
                    for length in set.lengths where n - p >= length {
                        if set.values.contains(CodeSet.pack(input, start + p, length)) { next.insert(p + length) }
                    }
                }
            case .literal(let literalStart, let count) where count > 1:
                guard let first = current.first else { break }
                if failures.isEmpty || current.population * count <= n - first {
                    current.forEach { p in
                        let q = step(token, input, start + p, end, pool)
                        if q >= 0 { next.insert(q - start) }
                    }
                    break
                }
                // Many positions: one KMP pass finds every occurrence, instead of comparing `count` bytes at each
                // position (which made a long literal cost its length times the URL's).
                failures.withUnsafeBufferPointer { failures in
                    var matched = 0
                    var i = start + first
                    while i < end {
                        let b = input[i]
                        while matched > 0, b != pool[literalStart + matched] {
                            matched = Int(failures[literalStart + matched - 1])
                        }
                        if b == pool[literalStart + matched] { matched += 1 }
                        i += 1
                        if matched == count {
                            if current.contains(i - count - start) { next.insert(i - start) }
                            matched = Int(failures[literalStart + count - 1])
                        }
                    }
                }
            case .alternation(let index):
                // Each alternative (variables cannot nest) is simulated from the same positions.
                for alternative in alternations[index] {
                    next.formUnion(alternative.pool.withUnsafeBufferPointer { altPool in
                        alternative.simulate(input, start, end, altPool, from: current, &steps)
                    })
                }
            default:
                current.forEach { p in
                    let q = step(token, input, start + p, end, pool)
                    if q >= 0 { next.insert(q - start) }
                }
            }
            if next.isEmpty { return next }
            current = next
        }
        return current
    }
}
