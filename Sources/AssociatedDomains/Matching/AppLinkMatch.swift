/// The answer to "will this URL open this app?", with the rule that decided.
public struct AppLinkMatch: Sendable, Hashable {
    /// The three possible answers.
    public enum Outcome: String, Sendable, Hashable {
        /// A rule matched: iOS opens the app.
        case match
        /// An `exclude` rule matched first: iOS opens the browser.
        case exclude
        /// No rule matched (or the host or app does not apply): iOS opens the browser.
        case none
    }

    /// The answer.
    public var outcome: Outcome
    /// The index in `applinks.details` of the deciding rule's detail, for `match` and `exclude`.
    package var detailIndex: Int?
    /// The index of the deciding rule in its detail's `components` (or `paths`), for `match` and `exclude`.
    package var ruleIndex: Int?
    /// The deciding rule's key path, e.g. `applinks.details[0].components[1]`.
    public var keyPath: String?
    /// One sentence: which rule decided, or why none did.
    public var explanation: String
    /// For `none` from ``AppLinkMatcher/explain(_:appID:domain:)``: the nearest rules and where each stopped
    /// matching, best first. Empty from ``AppLinkMatcher/match(_:appID:domain:)``.
    public var nearMisses: [String]

    package init(
        outcome: Outcome, detailIndex: Int? = nil, ruleIndex: Int? = nil, keyPath: String? = nil,
        explanation: String, nearMisses: [String] = []
    ) {
        self.outcome = outcome
        self.detailIndex = detailIndex
        self.ruleIndex = ruleIndex
        self.keyPath = keyPath
        self.explanation = explanation
        self.nearMisses = nearMisses
    }
}
