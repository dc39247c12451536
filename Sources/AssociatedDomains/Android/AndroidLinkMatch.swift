/// The answer of ``AndroidLinkMatcher/explain(_:)``.
public struct AndroidLinkMatch: Sendable, Hashable {
    /// The URL as given.
    package var url: String
    /// Whether tapping it opens the app directly.
    public var opensApp: Bool
    /// The intent filter that takes it (`.MainActivity (line 14)`), if one does.
    public var filter: String?
    /// The dynamic rule that decided (`dynamic_app_link_components[1]`), if one did.
    public var rule: String?
    /// Why, in one sentence.
    public var reason: String

    package init(url: String, opensApp: Bool, filter: String? = nil, rule: String? = nil, reason: String) {
        self.url = url
        self.opensApp = opensApp
        self.filter = filter
        self.rule = rule
        self.reason = reason
    }
}
