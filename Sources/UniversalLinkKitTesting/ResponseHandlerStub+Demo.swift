extension ResponseHandlerStub {
    /// A small link table for demos and manual `curl` sessions (`linux-host serve`, `linux-host demo`).
    ///
    /// - `/pub/acc?_ri_=product`: an app link with both destinations,
    ///   web `https://www.example.com/products/1234`, deep `example-app://products/1234`;
    /// - `/pub/acc?_ri_=web-only`: an app link whose deep link is `null` (the app falls back to the web link),
    ///   web `https://www.example.com/sale`;
    /// - `/pub/cc?_ri_=article`: a non-app link, web only, `https://www.example.com/articles/42`.
    public static let demoLinks: [String: Link] = [
        "/pub/acc?_ri_=product": Link(
            webLinkUrl: "https://www.example.com/products/1234", mobileDeepLinkUrl: "example-app://products/1234"),
        "/pub/acc?_ri_=web-only": Link(webLinkUrl: "https://www.example.com/sale", mobileDeepLinkUrl: nil),
        "/pub/cc?_ri_=article": Link(webLinkUrl: "https://www.example.com/articles/42", mobileDeepLinkUrl: nil),
    ]
}
