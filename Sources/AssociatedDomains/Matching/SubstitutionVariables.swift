/// The custom substitution variables of one file, each compiled once per case folding however many rules use it,
/// and the file-wide budget on what matching them costs.
///
/// A variable whose values are short literals compiles to one hashed set; one whose values hold `*` or `?` (or are
/// longer than 7 bytes) compiles to a list of alternatives, and every `$(name)` occurrence is matched by trying each
/// alternative. Compiling each occurrence apart made memory grow as values × occurrences (a 109 KB file with a
/// variable of 1 000 `*`-values used 25 000 times took 13.7 GB); now every occurrence shares one compiled list, so
/// memory follows the file. The time to match still grows as alternatives × occurrences, so that product is
/// budgeted: past ``maximumAlternativeUses`` in a file, a further occurrence of such a variable compiles to a
/// pattern that never matches, and the reader reports it
/// (``AssociationDiagnostic/Code/tooManyVariableAlternatives``).
///
/// Used while compiling one file, from one thread; not shared.
final class SubstitutionVariables {
    /// The most alternatives × occurrences of wildcard (or long) variable values one file may use: 100 000 is a
    /// variable of 100 such values used 1 000 times.
    static let maximumAlternativeUses = 100_000

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
    /// The alternatives of every occurrence compiled so far.
    private(set) var alternativeUses = 0
    /// The occurrences refused for the budget.
    private(set) var refusedOccurrences = 0
    private var compiled: [Key: Matcher] = [:]

    /// Creates the variables of one file.
    /// - Parameters:
    ///   - values: Custom variables by name.
    ///   - maximumAlternativeUses: The file's budget.
    init(_ values: [String: [String]], maximumAlternativeUses: Int = SubstitutionVariables.maximumAlternativeUses) {
        self.values = values
        self.maximumAlternativeUses = maximumAlternativeUses
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
