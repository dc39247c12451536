import Foundation
import Testing

/// The Integrations README's "Mount the routes in your app" snippet is `ReadmeSnippet.swift`, which this target
/// compiles: the two must stay the same text.
struct ReadmeSnippetTests {
    @Test func theREADMEsMountingSnippetIsTheCompiledFile() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let readme = try String(contentsOf: tests.appendingPathComponent("../../README.md"), encoding: .utf8)
        let source = try String(contentsOf: tests.appendingPathComponent("ReadmeSnippet.swift"), encoding: .utf8)
        let marker = "<!-- snippet: Tests/IntegrationsTests/ReadmeSnippet.swift -->\n```swift\n"
        let start = try #require(readme.range(of: marker), "the README lost the snippet's marker")
        let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        #expect(String(readme[start.upperBound..<end.lowerBound]) == source)
    }
}
