import Foundation
@testable import AssociatedDomains

// The AASA matcher (AssociatedDomains): the input's lines are a path pattern, a query pattern, a fragment pattern
// and a URL; the rule is matched in every mode (case folding, percent-decoding, legacy), against a URL of any bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAASAMatch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var lines = text.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
    while lines.count < 4 { lines.append("") }
    let (path, query, fragment, url) = (lines[0], lines[1], lines[2], lines[3])
    for (caseSensitive, percentEncoded) in [(true, true), (false, false)] {
        let component = JSONValue.object([
            ("/", .string(path)), ("?", .string(query)), ("#", .string(fragment)),
            ("caseSensitive", .bool(caseSensitive)), ("percentEncoded", .bool(percentEncoded)),
        ])
        let dictionaryQuery = JSONValue.object([("q", .string(query)), (query, .string(fragment))])
        let file = JSONValue.object([
            ("applinks", .object([
                ("substitutionVariables", .object([("v", .array([.string(fragment), .string(query)]))])),
                ("details", .array([.object([
                    ("appIDs", .array([.string("ABCDE12345.com.example.app")])),
                    ("components", .array([
                        component,
                        .object([("/", .string(path)), ("?", dictionaryQuery), ("exclude", .bool(true))]),
                    ])),
                    ("paths", .array([.string(path), .string("NOT " + query)])),
                ])])),
            ])),
        ])
        let bytes = Array(JSONWriter.text(file, style: .indented).utf8)
        for platform in [AppLinkMatcher.Configuration.Platform.iOS13AndLater, .iOS9To12] {
            guard let matcher = try? AppLinkMatcher(parsing: bytes, configuration: .init(platform: platform)) else {
                continue
            }
            _ = matcher.match(url, appID: "ABCDE12345.com.example.app", domain: "example.com")
            _ = matcher.explain("https://example.com" + url, appID: "ABCDE12345.com.example.app")
        }
    }
    return 0
}
