extension LinkDoctor {
    /// `a, b, c and 7 more`: at most `limit` items named, so that a finding's message stays short whatever the
    /// size of the input it lists from (hosts of an email, app IDs of a file, fingerprints of a statement).
    static func examples(_ items: [String], limit: Int = 3) -> String {
        items.prefix(limit).joined(separator: ", ") + (items.count > limit ? " and \(items.count - limit) more" : "")
    }
}
