/// One entry of `applinks.details`: which apps, and which URLs.
package struct AppLinkDetail: Sendable, Hashable {
    /// `appID` (iOS 9–12 form, or the key of the oldest details-keyed-by-app-ID form).
    package var appID: String?
    /// `appIDs` (iOS 13+ form). When present, iOS 13+ uses it instead of `appID`.
    package var appIDs: [String]?
    /// `components` (iOS 13+). When present, iOS 13+ ignores `paths`.
    package var components: [AppLinkComponent]?
    /// `paths` (iOS 9–12 form), including `"NOT /x"` exclusions.
    package var paths: [String]?
    /// `defaults`: merged after the file's defaults and before each component's own keys.
    package var defaults: AppLinkComponent?

    /// Creates a detail.
    /// - Parameters:
    ///   - appID: The single app ID (legacy form).
    ///   - appIDs: The app IDs (iOS 13+ form).
    ///   - components: The iOS 13+ rules.
    ///   - paths: The legacy rules.
    ///   - defaults: Detail-level defaults.
    package init(
        appID: String? = nil,
        appIDs: [String]? = nil,
        components: [AppLinkComponent]? = nil,
        paths: [String]? = nil,
        defaults: AppLinkComponent? = nil
    ) {
        self.appID = appID
        self.appIDs = appIDs
        self.components = components
        self.paths = paths
        self.defaults = defaults
    }

    /// The app IDs iOS 13+ reads: `appIDs` when present, else `appID`.
    package var modernAppIDs: [String] {
        if let appIDs { return appIDs }
        if let appID { return [appID] }
        return []
    }

    /// The rules iOS 13+ applies: `components` when present, else `paths` converted
    /// (see ``AppLinkComponent/init(legacyPath:)``).
    package var modernRules: [AppLinkComponent] {
        if let components { return components }
        return (paths ?? []).map(AppLinkComponent.init(legacyPath:))
    }
}
