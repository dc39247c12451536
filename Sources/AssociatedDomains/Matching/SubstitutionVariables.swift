/// The custom substitution variables of one file, each compiled once per case folding however many rules use it,
/// and the file-wide budget on what matching them costs.
///
/// A variable whose values are short literals compiles to one hashed set; one whose values hold `*` or `?` (or are
/// longer than 7 bytes) compiles to a list of alternatives, and every `$(name)` occurrence is matched by trying each
/// alternative. Every occurrence shares the one compiled list, so memory follows the file, not values ×
/// occurrences (a 109 KB file can use a variable of 1 000 `*`-values 25 000 times). The time to match grows as
/// alternatives × occurrences, so that product is budgeted: past ``maximumAlternativeUses`` in a file, a further occurrence of such a variable compiles to a
/// pattern that never matches, and the reader reports it
/// (`tooManyVariableAlternatives`).
///
/// The same object carries the file's budget on matching work (``GlobPattern/work``: steps per input byte beyond
/// one pass), since every pattern of a file is compiled with it: at most ``maximumPatternWork`` for one pattern, so
/// that no rule costs more than a constant times the URL, and ``maximumMatchingWork`` for all of them, so that the
/// file costs at most its rules plus that constant times the URL. A pattern past either compiles to one that never
/// matches, and the reader reports it (`tooMuchMatchingWork`).
///
/// Used while compiling one file, from one thread; not shared.
final class SubstitutionVariables {
    /// The most alternatives × occurrences of wildcard (or long) variable values one file may use: 100 000 is a
    /// variable of 100 such values used 1 000 times.
    static let maximumAlternativeUses = 100_000

    /// The most ``GlobPattern/work`` one pattern may have: 4 096 steps per input byte is a run of 4 096 units
    /// between stars tried at each place, or a simulated pattern of 4 096 tokens. Far above anything a real file
    /// writes (`/*/item-??????/*` is a run of 14 units), and what keeps one rule against a 64 KB URL at a quarter of
    /// a billion steps at most.
    static let maximumPatternWork = 4_096

    /// The most ``GlobPattern/work`` all the patterns of one file may have together: 250 000 holds the 100 uses of a
    /// 1 000-value variable that ``maximumAlternativeUses`` allows (2 000 simulated tokens each), and stops a file from
    /// repeating a pattern just under ``maximumPatternWork`` thousands of times.
    static let maximumMatchingWork = 250_000

    /// What a `$(name)` compiles to.
    enum Matcher {
        case byteClass(ByteSet)
        case codeSet(GlobPattern.CodeSet)
        case alternatives([GlobPattern])
    }

    /// What looking a name up found.
    enum Lookup {
        case matcher(Matcher)
        /// Neither custom nor built-in.
        case undefined
        /// A custom variable of alternatives, past the file's budget.
        case overBudget
    }

    private struct Key: Hashable {
        var name: String
        var caseInsensitive: Bool
    }

    /// The variables as written.
    let values: [String: [String]]
    /// The budget for ``alternativeUses``.
    let maximumAlternativeUses: Int
    /// The budget for one pattern's ``GlobPattern/work``.
    let maximumPatternWork: Int
    /// The budget for ``matchingWork``.
    let maximumMatchingWork: Int
    /// The work of every pattern compiled so far.
    private(set) var matchingWork = 0
    /// The patterns refused for the work budget.
    private(set) var refusedPatterns = 0
    /// The alternatives of every occurrence compiled so far.
    private(set) var alternativeUses = 0
    /// The occurrences refused for the budget.
    private(set) var refusedOccurrences = 0
    private var compiled: [Key: Matcher] = [:]

    /// Creates the variables of one file.
    /// - Parameters:
    ///   - values: Custom variables by name.
    ///   - maximumAlternativeUses: The file's budget of alternatives.
    ///   - maximumPatternWork: One pattern's budget of work.
    ///   - maximumMatchingWork: The file's budget of work.
    init(
        _ values: [String: [String]], maximumAlternativeUses: Int = SubstitutionVariables.maximumAlternativeUses,
        maximumPatternWork: Int = SubstitutionVariables.maximumPatternWork,
        maximumMatchingWork: Int = SubstitutionVariables.maximumMatchingWork
    ) {
        self.values = values
        self.maximumAlternativeUses = maximumAlternativeUses
        self.maximumPatternWork = maximumPatternWork
        self.maximumMatchingWork = maximumMatchingWork
    }

    /// Counts one compiled pattern's ``GlobPattern/work`` against the budgets.
    /// - Returns: `false` when the pattern is past either budget (it is then not counted, and must never match).
    func chargeWork(_ work: Int) -> Bool {
        guard work <= maximumPatternWork, matchingWork + work <= maximumMatchingWork else {
            refusedPatterns += 1
            return false
        }
        matchingWork += work
        return true
    }

    /// The compiled form of one occurrence of `$(name)`, counted against the budget.
    func lookUp(_ name: String, caseInsensitive: Bool) -> Lookup {
        guard values[name] != nil else {
            return GlobPattern.builtInVariable(name, caseInsensitive: caseInsensitive).map(Lookup.matcher) ?? .undefined
        }
        let key = Key(name: name, caseInsensitive: caseInsensitive)
        let matcher = compiled[key] ?? compile(name, caseInsensitive: caseInsensitive)
        compiled[key] = matcher
        if case .alternatives(let alternatives) = matcher {
            guard alternativeUses + alternatives.count <= maximumAlternativeUses else {
                refusedOccurrences += 1
                return .overBudget
            }
            alternativeUses += alternatives.count
        }
        return .matcher(matcher)
    }

    private func compile(_ name: String, caseInsensitive: Bool) -> Matcher {
        let bytes = (values[name] ?? []).map { Array($0.utf8) }
        let plain = bytes.allSatisfy { value in
            value.count <= 7 && !value.contains(UInt8(ascii: "*")) && !value.contains(UInt8(ascii: "?"))
        }
        if plain {
            return .codeSet(GlobPattern.makeCodeSet(bytes, caseInsensitive: caseInsensitive))
        }
        // Values may hold '*' and '?' but never other variables.
        return .alternatives(bytes.map { GlobPattern($0, variables: nil, caseInsensitive: caseInsensitive) })
    }
}
