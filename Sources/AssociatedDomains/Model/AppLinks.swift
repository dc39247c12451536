/// The `applinks` section of an association file.
package struct AppLinks: Sendable, Hashable {
    /// `apps`: must be an empty array for iOS 9–12; ignored by iOS 13+. `nil` when absent.
    package var apps: [String]?
    /// `defaults`: keys merged into every component of every detail (before the detail's own defaults).
    package var defaults: AppLinkComponent?
    /// `substitutionVariables`: custom `$(name)` values; each value may contain `*` and `?`.
    package var substitutionVariables: [String: [String]]
    /// `details`, in file order (the oldest form, keyed by app ID, keeps the key order).
    package var details: [AppLinkDetail]

    /// Creates a section.
    /// - Parameters:
    ///   - apps: `apps`; `[]` for files that must also work on iOS 9–12.
    ///   - defaults: File-level defaults.
    ///   - substitutionVariables: Custom substitution variables.
    ///   - details: The details, in order.
    package init(
        apps: [String]? = nil,
        defaults: AppLinkComponent? = nil,
        substitutionVariables: [String: [String]] = [:],
        details: [AppLinkDetail] = []
    ) {
        self.apps = apps
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
        self.details = details
    }
}
