import Foundation
@testable import AssociatedDomains

// Dynamic App Links rules (AssociatedDomains): any bytes as an assetlinks.json. Statements that read are asked about
// URLs made from the input's own rules and about fixed ones on every platform, and linted against a fixed manifest
// (which looks every rule up among the ones before it). Each rule's glob must answer as the textbook
// dynamic-programming glob does, on the URLs' decoded paths (unless refused for the work budget).
let manifest = try! AndroidManifest(parsing: #"""
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"><application>
<activity android:name=".Main"><intent-filter android:autoVerify="true">
<action android:name="android.intent.action.VIEW"/><category android:name="android.intent.category.DEFAULT"/>
<category android:name="android.intent.category.BROWSABLE"/>
<data android:scheme="https" android:host="news.example.com"/><data android:host="*.example.com"/>
<data android:pathPrefix="/pub/"/><data android:pathPattern="/p.*/x"/>
</intent-filter></activity></application></manifest>
"""#)
let fixed = ["https://news.example.com/pub/acc?_ri_=1&a=b#f", "https://a.example.com/pub/cc?a=1;b=2", "https://news.example.com/", "custom:x"]

/// `*` any run, `?` one unit: the reference, O(pattern × text).
func reference(_ pattern: [UInt16], _ text: [UInt16]) -> Bool {
    let star = UInt16(UInt8(ascii: "*")), question = UInt16(UInt8(ascii: "?"))
    var row = [Bool](repeating: false, count: text.count + 1)
    row[0] = true
    for p in pattern {
        var next = [Bool](repeating: false, count: text.count + 1)
        for t in 0...text.count {
            if p == star {
                next[t] = row[t] || (t > 0 && next[t - 1])
            } else if t > 0, row[t - 1], p == question || p == text[t - 1] {
                next[t] = true
            }
        }
        row = next
    }
    return row[text.count]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAndroidDynamicRules(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let statements = try? AndroidAssetStatement.statements(in: bytes) else { return 0 }
    var urls = fixed
    for statement in statements.prefix(2) {
        for rule in (statement.dynamicRules ?? []).prefix(8) {
            let path = rule.path.map { $0.replacingOccurrences(of: "*", with: "zz").replacingOccurrences(of: "?", with: "q") } ?? "/"
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "/"
            urls.append("https://news.example.com" + (encoded.hasPrefix("/") ? "" : "/") + encoded)
        }
    }
    for platform in AndroidLinkMatcher.Configuration.Platform.allCases {
        let matcher = AndroidLinkMatcher(manifest: manifest, statements: statements, packageName: "com.example.app", configuration: .init(platform: platform))
        for url in urls { _ = matcher.explain(url) }
        _ = matcher.lint()
    }
    for statement in statements.prefix(2) {
        for rule in (statement.dynamicRules ?? []).prefix(8) {
            // A glob refused for the work budget never matches: nothing to compare.
            guard let glob = rule.pathGlob, !glob.exceedsWorkBudget else { continue }
            let pattern = Array(glob.text.utf16)
            for url in urls {
                guard let uri = AndroidURI(url), pattern.count * uri.path.count <= 1 << 20 else { continue }
                precondition(glob.matches(uri.path) == reference(pattern, uri.path),
                             "the dynamic glob disagrees with the reference")
            }
        }
    }
    return 0
}
