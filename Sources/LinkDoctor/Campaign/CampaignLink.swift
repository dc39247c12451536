/// One distinct link of an email and what it will do.
public struct CampaignLink: Sendable, Hashable {
    /// What a link is meant to do.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A pub-web app link on the branded domain (`/pub/acc` or the configured paths): should open the app.
        case appLink
        /// Any other link on the branded domain (`/pub/cc`, unsubscribe, view in browser): should open the web.
        case webLink
        /// Not on the branded domain, not http(s), or relative.
        case other
        /// A link only Outlook on Windows renders: inside a downlevel-hidden conditional comment
        /// (`<!--[if mso]> ... <![endif]-->`), such as the VML half of a "bulletproof" button. Phones never see it,
        /// so it is listed and never judged as an app link; `link.outlookOnlyDiffers` when it is a tracking link
        /// whose path or `_ri_` no link a phone sees has.
        case outlookOnly
    }

    /// The link as a browser reads it (entities decoded).
    public var url: String
    /// What it is meant to do.
    public var kind: Kind
    /// Whether iOS opens the app for it: `nil` when not known (not on a branded domain, or its association file
    /// could not be read).
    public var opensApp: Bool?
    /// Whether Android opens the app for it: `nil` when not judged (no ``CampaignCheck/android``, or not an
    /// http(s) link on a branded domain).
    public var opensAppOnAndroid: Bool? = nil
    /// Why Android opens the app or the browser, when judged.
    package var androidReason: String? = nil
    /// With resolution: the `mobileDeepLinkUrl` it resolved to.
    public var deepLink: String?
    /// With resolution: the `webLinkUrl` it resolved to.
    public var webLink: String?
    /// With resolution and a route table: the pattern that matched the destination.
    public var route: String?
    /// What is wrong with it, or worth knowing.
    public var findings: [Finding]

    package init(
        url: String, kind: Kind, opensApp: Bool? = nil, deepLink: String? = nil, webLink: String? = nil,
        route: String? = nil, findings: [Finding] = []
    ) {
        self.url = url
        self.kind = kind
        self.opensApp = opensApp
        self.deepLink = deepLink
        self.webLink = webLink
        self.route = route
        self.findings = findings
    }
}
