import Foundation
import Testing
@testable import UniversalLinkKit

/// Hostile Response Handler bodies, each within the 64 KiB cap: an `invalidResponse` error, never a crash or a hang.
/// (`.ci/fuzz` runs the same parser on random bodies; these are the shapes it cannot reach within its input size.)
struct ResolutionResponseRobustnessTests {
    static let url = URL(string: "https://news.example.com/pub/acc?_ri_=X")!

    static let bodies: [(String, Data)] = [
        ("32 000 nested arrays", Data((String(repeating: "[", count: 32_000) + String(repeating: "]", count: 32_000)).utf8)),
        ("10 000 nested objects", Data((String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)).utf8)),
        ("65 000 unclosed arrays", Data(String(repeating: "[", count: 65_000).utf8)),
        ("invalid UTF-8 in the links", Data(#"{"webLinkUrl": "https://w.com/"#.utf8) + Data([0xFF, 0xFE]) + Data(#"", "mobileDeepLinkUrl": null}"#.utf8)),
        ("a number beyond Double", Data(#"{"webLinkUrl": 1e999999}"#.utf8)),
        ("a lone surrogate escape", Data(#"{"webLinkUrl": "https://w.com/\uD800"}"#.utf8)),
        ("NUL bytes", Data([0x7B, 0x00, 0x7D])),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: bodies.map(\.0))
    func aHostileBodyIsAnInvalidResponse(name: String) throws {
        let body = try #require(Self.bodies.first { $0.0 == name }?.1)
        #expect(body.count <= 64 * 1024)
        do {
            let response = try ResolutionResponse.decode(body, requestedURL: Self.url)
            Issue.record("\(name): decoded as \(response)")
        } catch {
            #expect(error.code == .invalidResponse || error.code == .unsafeLink, "\(name): \(error)")
        }
    }
}
