import Foundation
import Testing

/// The Integrations README's "Mount the routes in your app" snippet is `ReadmeSnippet.swift`, which this target
/// compiles: the two must stay the same text.
struct ReadmeSnippetTests {
    /// Expects the snippet after `<!-- snippet: Tests/IntegrationsTests/FILE -->` in `document` (relative to this
    /// folder) to be FILE's text.
    static func expectSnippet(in document: String, is file: String) throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let text = try String(contentsOf: tests.appendingPathComponent(document), encoding: .utf8)
        let source = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
        let marker = "<!-- snippet: Tests/IntegrationsTests/\(file) -->\n```swift\n"
        let start = try #require(text.range(of: marker), "\(document) lost the snippet's marker")
        let end = try #require(text.range(of: "```\n", range: start.upperBound..<text.endIndex))
        #expect(String(text[start.upperBound..<end.lowerBound]) == source)
    }

    @Test func theREADMEsMountingSnippetIsTheCompiledFile() throws {
        try Self.expectSnippet(in: "../../README.md", is: "ReadmeSnippet.swift")
    }
}
