import Foundation
import Testing
@testable import AssociatedDomains

/// Manifest attribute values go through `aapt2`'s string escapes: the reader resolves them as `aapt2` does, and the
/// generated intent filter writes every value so that it reads back as meant.
struct AndroidAttributeEscapingTests {
    static let host = "news.example.com"

    static func manifest(_ filter: String) -> String {
        AndroidGenerationRoundTripTests.manifest(filter)
    }

    /// (as written in the file, between the quotes; as Android reads it): `aapt2`'s `StringBuilder`, spaces kept.
    static let escapes: [(String, String)] = [
        (#"/a\\b"#, #"/a\b"#), (#"/a\b"#, "/ab"), (#"/p\\.x"#, #"/p\.x"#), (#"\n\t"#, "\n\t"),
        (#"/c\u0041"#, "/cA"), (#"/c\u00e9!"#, "/cé!"), (#"/c\u41"#, "/cA"), (#"/c\u"#, "/c\u{0}"),
        (#"/d\uD800x"#, "/dx"), (#"\@x"#, "@x"), (#"\?x"#, "?x"), (##"\#x"##, "#x"), (#"\'"#, "'"), (#"\&quot;"#, "\""),
        (#"/e\"#, "/e"), ("/f g", "/f g"), ("/h&amp;&lt;&#x9;", "/h&<\t"),
    ]

    @Test(arguments: escapes)
    func theReaderResolvesAapt2sEscapes(written: String, read: String) throws {
        let xml = Self.manifest(#"<intent-filter><data android:scheme="https" android:host="a" android:path="\#(written)"/></intent-filter>"#)
        let manifest = try AndroidManifest(parsing: xml)
        #expect(manifest.intentFilters.first?.paths.first?.pattern == read)
        #expect(manifest.problems.isEmpty)
    }

    @Test func aMalformedUnicodeEscapeEndsTheValueAsAapt2DoesAndIsReported() throws {
        let xml = Self.manifest(#"<intent-filter><data android:scheme="https" android:host="a" android:path="/a\u00G1/b"/></intent-filter>"#)
        let manifest = try AndroidManifest(parsing: xml)
        #expect(manifest.intentFilters.first?.paths.first?.pattern == "/a")
        #expect(manifest.problems.map(\.description) == [
            #"3: android:path: a \u escape with a character that is not a hexadecimal digit: aapt2 keeps only "/a", the text before it"#,
        ])
    }

    @Test func theGeneratorEscapesBackslashesAndEveryOtherAapt2Escape() throws {
        let rules = AppLinkRuleSet(appIDs: [AndroidGenerationRoundTripTests.app], rules: [
            .include(#"/a\b"#), .include(#"/c\u0041"#), .include("@x/'\"?"), .include("/t\tn\nz\u{1}/*"),
        ])
        let filter = try rules.androidIntentFilter(host: Self.host)
        #expect(filter.contains(#"<data android:path="/a\\b" />"#))
        #expect(filter.contains(#"<data android:path="/c\\u0041" />"#))
        #expect(filter.contains(#"<data android:pathPattern="\@x/\'\&quot;." />"#))
        #expect(filter.contains(#"<data android:path="/t\tn\nz\u0001" />"#))
        #expect(filter.contains(#"<data android:pathPrefix="/t\tn\nz\u0001/" />"#))
        let read = try AndroidManifest(parsing: Self.manifest(filter))
        #expect(read.intentFilters.first?.paths.map(\.pattern) == [
            #"/a\b"#, #"/a\b/"#, #"/c\u0041"#, #"/c\u0041/"#, #"@x/'"."#, "/t\tn\nz\u{1}", "/t\tn\nz\u{1}/",
        ])
    }

    static let pieces = ["/", "a", ".", "\\", "\\u0041", "\\n", "'", "\"", "@", "?", "*", "#", "&", "<", "\n", "\t", "\r",
                         "\u{1}", "é", "🙂", "$(digit)", " ", "u", "%"]

    /// Generate a filter for a random include path, read it back with the manifest reader, and ask both it and the
    /// filter the generator meant (its patterns built in code) about random paths: every answer is the same.
    @Test(arguments: [1, 2, 3])
    func randomPathsReadBackAsWrittenAndAnswerAlike(seed: UInt64) throws {
        var rng = SeededGenerator(state: seed)
        func text(_ count: ClosedRange<Int>) -> String {
            (0..<Int.random(in: count, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()
        }
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "%;"))
        var taken = 0
        for _ in 0..<60 {
            let include = "/" + text(1...6)
            let rules = AppLinkRuleSet(appIDs: [AndroidGenerationRoundTripTests.app], rules: [.include(include)])
            guard (try? rules.validate()) != nil else { continue }
            let read = try AndroidManifest(parsing: Self.manifest(try rules.androidIntentFilter(host: Self.host)))
            #expect(read.problems.isEmpty, "\(include): \(read.problems)")
            let meant = try AppLinkRuleSet.androidData(for: include).map { attribute, value in
                try AndroidPattern(value, kind: AndroidPattern.Kind.allCases.first { "path" + $0.attributeSuffix == attribute }!)
            }
            #expect(read.intentFilters.first?.paths == meant, "\(include)")
            var built = try #require(read.intentFilters.first)
            built.paths = meant
            let android = AndroidLinkMatcher(manifest: read)
            let reference = AndroidLinkMatcher(manifest: AndroidManifest(intentFilters: [built]))
            // The include path with its wildcards filled in, and random paths.
            var filled = include.replacingOccurrences(of: "$(digit)", with: "5")
            filled = filled.replacingOccurrences(of: "*", with: "zz").replacingOccurrences(of: "?", with: "q")
            for path in [filled, include] + (0..<8).map({ _ in "/" + text(0...6) }) {
                let encoded = try #require(path.addingPercentEncoding(withAllowedCharacters: allowed))
                let url = "https://\(Self.host)\(encoded)"
                let opens = reference.explain(url).opensApp
                #expect(android.explain(url).opensApp == opens, "\(include) on \(path)")
                if opens { taken += 1 }
            }
        }
        // The property is exercised on paths the filters take, not only on paths they refuse.
        #expect(taken > 30)
    }
}
