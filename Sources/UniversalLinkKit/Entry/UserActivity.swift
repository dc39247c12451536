import Foundation

/// What iOS hands an app in `application(_:continue:restorationHandler:)`, as a plain value.
///
/// Only browsing-web activities carry universal links:
///
/// ```swift
/// let activity = UserActivity(browsingWeb: URL(string: "https://news.example.com/pub/acc?_ri_=X")!)
/// LinkManager.shared.continueUserActivity(activity)
/// ```
public struct UserActivity: Sendable, Hashable {
    /// The activity type of a universal link.
    package static let browsingWeb = "NSUserActivityTypeBrowsingWeb"

    /// The activity's type; ``LinkManager`` only handles `"NSUserActivityTypeBrowsingWeb"`.
    package var activityType: String

    /// The web page URL the user opened, for browsing-web activities.
    package var webpageURL: URL?

    /// Creates an activity.
    ///
    /// - Parameters:
    ///   - activityType: The activity type, `"NSUserActivityTypeBrowsingWeb"` for universal links.
    ///   - webpageURL: The URL that was opened.
    public init(activityType: String, webpageURL: URL?) {
        self.activityType = activityType
        self.webpageURL = webpageURL
    }

    /// Creates a browsing-web activity for a URL, as iOS does when a universal link opens the app.
    ///
    /// - Parameter url: The universal link.
    public init(browsingWeb url: URL) {
        self.init(activityType: Self.browsingWeb, webpageURL: url)
    }
}
