/// One positional argument of a `Command`.
struct CommandArgument: Sendable {
    /// What the argument is called in help (`"URL"`).
    var name: String
    /// One line saying what it is.
    var description: String
    /// Whether it takes every remaining argument (only the last argument may be).
    var isRepeatable: Bool
    /// Whether at least one value is needed.
    var isRequired: Bool

    init(_ name: String, _ description: String, repeatable: Bool = false, required: Bool = true) {
        self.name = name
        self.description = description
        self.isRepeatable = repeatable
        self.isRequired = required
    }

    /// How it is written in usage lines: `URL...`, `[URL...]`, `PAYLOAD_JSON`.
    var synopsis: String {
        let base = isRepeatable ? "\(name)..." : name
        return isRequired ? base : "[\(base)]"
    }
}
