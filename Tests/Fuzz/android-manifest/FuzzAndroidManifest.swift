import Foundation
@testable import AssociatedDomains

// The manifest reader (AssociatedDomains' own XML reader and intent-filter model): any bytes as an
// AndroidManifest.xml. A manifest that reads is asked about a few URLs on every platform, with dynamic rules, and
// linted; the filter its index finds for each URL must be the first that comparing every host and path finds.
let urls = ["https://news.example.com/pub/acc?_ri_=1#f", "https://a.example.com:8443/x%2Fy?a=1;b=2", "custom:x", "https://e/"]
let links = Array(#"""
[{"relation": ["delegate_permission/common.handle_all_urls"],
  "target": {"namespace": "android_app", "package_name": "com.example.app"},
  "relation_extensions": {"delegate_permission/common.handle_all_urls": {
    "dynamic_app_link_components": [{"/": "/pub/cc*", "exclude": true}, {"?": {"a": "?*"}}, {"#": "f"}, {"/": "*"}]}}}]
"""#.utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAndroidManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let manifest = try? AndroidManifest(parsing: bytes) else { return 0 }
    let statements = try? AndroidAssetStatement.statements(in: links)
    for platform in AndroidLinkMatcher.Configuration.Platform.allCases {
        let matcher = AndroidLinkMatcher(manifest: manifest, statements: statements, packageName: "com.example.app", configuration: .init(platform: platform))
        for url in urls {
            _ = matcher.explain(url)
            guard let uri = AndroidURI(url) else { continue }
            let android15 = platform == .android15AndLater
            var steps = 0
            let indexed = matcher.takingFilter(uri, android15: android15, steps: &steps)
            let compared = manifest.intentFilters.indices.first { f in
                manifest.intentFilters[f].takesTappedLinks && manifest.intentFilters[f].dataMismatch(uri, android15: android15) == nil
            }
            precondition(indexed == compared, "the filter index disagrees with comparing every host and path")
        }
        _ = matcher.lint()
    }
    return 0
}
