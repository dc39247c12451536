import AssociatedDomains
import LinkRouting

/// What ``LinkDoctor/checkCampaign(_:)`` checks: an HTML email, the app its links should open, and optionally
/// the association file, a route table and permission to resolve.
///
/// ```swift
/// var campaign = CampaignCheck(html: html, appIDs: ["ABCDE12345.com.example.app"])
/// campaign.brandedDomains = ["news.example.com"]
/// campaign.resolves = true   // counts one click per distinct app link
/// ```
public struct CampaignCheck: Sendable {
    /// The email's HTML.
    public var html: String
    /// The app IDs the app links should open.
    public var appIDs: [String]
    /// The association file to judge the links by; `nil` fetches it from each branded domain (well-known
    /// location, then root, as iOS does).
    public var association: AppSiteAssociation?
    /// A route table: with ``resolves``, each resolved link's deep link or web link must match a route.
    public var routeTable: RouteTable?
    /// Whether to resolve each distinct app link once through `LinkResolver` (links that are one click, as
    /// `LinkManager` coalesces them, share one resolution). A resolution counts a click, so it is off by default.
    public var resolves: Bool
    /// The branded (click-tracking) domains: exact hosts or `*.example.com`. Empty: the hosts of the email's
    /// pub-web links (`/pub/acc`, `/pub/cc` or the configured paths).
    public var brandedDomains: [String]
    /// The Android side (manifest, and the host's `assetlinks.json` statements) to say whether each link opens
    /// the app on Android too; `nil` judges iOS only.
    public var android: AndroidLinkMatcher? = nil

    /// Creates a campaign check.
    ///
    /// - Parameters:
    ///   - html: The email's HTML.
    ///   - appIDs: The app IDs.
    ///   - association: The association file, or `nil` to fetch it.
    ///   - routeTable: A route table, or `nil`.
    ///   - resolves: Resolve app links (counts clicks).
    ///   - brandedDomains: The branded domains; empty infers them.
    public init(
        html: String, appIDs: [String], association: AppSiteAssociation? = nil, routeTable: RouteTable? = nil,
        resolves: Bool = false, brandedDomains: [String] = []
    ) {
        self.html = html
        self.appIDs = appIDs
        self.association = association
        self.routeTable = routeTable
        self.resolves = resolves
        self.brandedDomains = brandedDomains
    }
}
