import Foundation
@testable import AssociatedDomains

// The AASA parser and checker (AssociatedDomains): any bytes as an apple-app-site-association file. A file that
// parses is matched against a few URLs.
let urls = ["https://example.com/", "https://example.com/pub/acc?_ri_=1#f", "https://example.com/a%20b/%FF?x=1&x=2",
            "https://EXAMPLE.com//buy/42/"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAASAParse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    _ = AppSiteAssociation.check(bytes)
    guard let file = try? AppSiteAssociation(parsing: bytes) else { return 0 }
    let apps = Set((file.applinks?.details ?? []).flatMap(\.modernAppIDs)).prefix(3)
    for platform in [AppLinkMatcher.Configuration.Platform.iOS13AndLater, .iOS9To12] {
        let matcher = AppLinkMatcher(file, configuration: .init(platform: platform))
        for url in urls {
            for app in apps {
                _ = matcher.match(url, appID: app, domain: "example.com")
                _ = matcher.explain(url, appID: app)
            }
        }
    }
    return 0
}
