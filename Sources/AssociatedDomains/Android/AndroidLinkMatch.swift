/// The answer of ``AndroidLinkMatcher/explain(_:)``.
public struct AndroidLinkMatch: Sendable, Hashable {
    /// The URL as given.
    public var url: String
    /// Whether tapping it opens the app directly.
    public var opensApp: Bool
    /// The intent filter that takes it (`.MainActivity (line 14)`), if one does.
    public var filter: String?
    /// The dynamic rule that decided (`dynamic_app_link_components[1]`), if one did.
    public var rule: String?
    /// Why, in one sentence.
    public var reason: String

    /// Creates an answer.
    /// - Parameters:
    ///   - url: The URL.
    ///   - opensApp: Whether it opens the app.
    ///   - filter: The filter that takes it.
    ///   - rule: The dynamic rule that decided.
    ///   - reason: Why.
    public init(url: String, opensApp: Bool, filter: String? = nil, rule: String? = nil, reason: String) {
        self.url = url
        self.opensApp = opensApp
        self.filter = filter
        self.rule = rule
        self.reason = reason
    }
}
