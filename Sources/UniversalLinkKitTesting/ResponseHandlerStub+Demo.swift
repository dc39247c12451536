extension ResponseHandlerStub {
    /// The link table of the demo's story, for `linux-host demo`, `linux-host serve` and manual `curl` sessions.
    ///
    /// - `/pub/acc?_ri_=product`: an app link with both destinations,
    ///   web `https://www.example.com/products/1234`, deep `example-app://products/1234`;
    /// - `/pub/acc?_ri_=web-only`: an app link whose deep link is `null` (the app falls back to the web link),
    ///   web `https://www.example.com/sale`;
    /// - `/pub/cc?_ri_=article`: a non-app link, web only, `https://www.example.com/articles/42`;
    /// - `/pub/acc?_ri_=push-offer`: the link of a push notification, web `https://www.example.com/offers/48h`,
    ///   deep `example-app://offers/48h`;
    /// - `/pub/acc?_ri_=invite` and `/pub/acc?_ri_=invite-again`: invitations without a deep link,
    ///   web `https://www.example.com/invites/ABC123`.
    ///
    /// The failing and slow links of the story are in `demoBehaviors`.
    public static let demoLinks: [String: Link] = [
        "/pub/acc?_ri_=product": Link(
            webLinkUrl: "https://www.example.com/products/1234", mobileDeepLinkUrl: "example-app://products/1234"),
        "/pub/acc?_ri_=web-only": Link(webLinkUrl: "https://www.example.com/sale", mobileDeepLinkUrl: nil),
        "/pub/cc?_ri_=article": Link(webLinkUrl: "https://www.example.com/articles/42", mobileDeepLinkUrl: nil),
        "/pub/acc?_ri_=push-offer": Link(
            webLinkUrl: "https://www.example.com/offers/48h", mobileDeepLinkUrl: "example-app://offers/48h"),
        "/pub/acc?_ri_=invite": Link(webLinkUrl: "https://www.example.com/invites/ABC123", mobileDeepLinkUrl: nil),
        "/pub/acc?_ri_=invite-again": Link(webLinkUrl: "https://www.example.com/invites/ABC123", mobileDeepLinkUrl: nil),
    ]

    /// The misbehaving links of the demo's story, by request target:
    ///
    /// - `/pub/acc?_ri_=broken`: answers `500` (the server failed to resolve the link);
    /// - `/pub/acc?_ri_=slow`: never answers (the client's deadline ends the wait).
    package static let demoBehaviors: [String: Behavior] = [
        "/pub/acc?_ri_=broken": .status(500, body: "internal error"),
        "/pub/acc?_ri_=slow": .noResponse,
    ]
}
