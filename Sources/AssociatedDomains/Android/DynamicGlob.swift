/// One glob of a Dynamic App Links rule, compiled once: `*` any run of characters (none included), `?` exactly one,
/// everything else itself, no escaping; a character is one UTF-16 code unit, as Android's matcher reads strings.
///
/// Matched by the AASA matcher's ``GlobPattern``, so both platforms share one glob algorithm and its cost: each run
/// between two stars is found at its leftmost place, a literal run with KMP, so a pattern reads the text about once,
/// plus its ``GlobPattern/work`` per character for runs that mix `?` with text. That work is charged to the file's
/// budget (``SubstitutionVariables/chargeWork(_:)``, no variables: Android has none, so `$(` is plain text); a glob
/// past it is never matched here, and the reader reports it (`tooMuchMatchingWork`).
///
/// ``GlobPattern`` reads UTF-8, with `?` taking one scalar; pattern and text are written for it so that one code unit
/// is one of its characters: each UTF-16 code unit encoded as UTF-8 on its own (a surrogate as three bytes). Equal
/// bytes are then equal code units, and `?` takes half of a surrogate pair, as on Android.
///
/// Compared and hashed by its text.
struct DynamicGlob: Sendable, Hashable {
    /// The glob as written.
    let text: String
    /// The compiled glob, or `nil` when it was refused for the work budget.
    private let compiled: GlobPattern?

    /// Compiles a glob, charging its work to `budget`.
    /// - Parameters:
    ///   - text: The glob.
    ///   - budget: The work budget of the file the glob is read from.
    init(_ text: String, budget: SubstitutionVariables = SubstitutionVariables([:])) {
        self.text = text
        let pattern = GlobPattern(DynamicGlob.encoded(text.utf16), variables: nil, caseInsensitive: false)
        compiled = budget.chargeWork(pattern.work) ? pattern : nil
    }

    /// The glob costs more than the work budget allows: it never matches here.
    var exceedsWorkBudget: Bool { compiled == nil }

    /// Whether the glob matches all of `text` (``encoded(_:)``), adding the work done to `steps`.
    func matches(_ text: [UInt8], steps: inout Int) -> Bool {
        compiled?.matches(text, steps: &steps) ?? false
    }

    /// Whether the glob matches all of `text` (tests).
    func matches(_ text: [UInt16]) -> Bool {
        var steps = 0
        return matches(DynamicGlob.encoded(text), steps: &steps)
    }

    /// UTF-16 code units as the globs read them: each one as UTF-8 on its own.
    static func encoded<Units: Collection<UInt16>>(_ units: Units) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(units.count)
        for unit in units {
            switch unit {
            case 0..<0x80:
                bytes.append(UInt8(unit))
            case 0x80..<0x800:
                bytes.append(0xC0 | UInt8(unit >> 6))
                bytes.append(0x80 | UInt8(unit & 0x3F))
            default:
                bytes.append(0xE0 | UInt8(unit >> 12))
                bytes.append(0x80 | UInt8(unit >> 6 & 0x3F))
                bytes.append(0x80 | UInt8(unit & 0x3F))
            }
        }
        return bytes
    }

    static func == (lhs: DynamicGlob, rhs: DynamicGlob) -> Bool { lhs.text == rhs.text }

    func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
