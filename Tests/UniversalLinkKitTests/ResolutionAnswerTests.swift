import Foundation
import Testing
@testable import UniversalLinkKit

/// The answer decoder: strict JSON, links screened, and hostile bodies (each within the 64 KiB cap) an
/// `invalidResponse` error, never a crash or a hang. (`.ci/fuzz` runs it on random bodies; these are the shapes it
/// cannot reach within its input size.)
struct ResolutionAnswerTests {
    static let url = URL(string: "https://news.example.com/pub/acc?_ri_=X")!

    func decode(_ body: String) throws(LinkError) -> ResolutionAnswer {
        try ResolutionAnswer.decode(Array(body.utf8), for: Self.url)
    }

    @Test func aNullDeepLinkLeavesTheWebLink() throws {
        let answer = try decode(#"{"webLinkUrl": "https://www.example.com/p", "mobileDeepLinkUrl": null, "x": [1]}"#)
        #expect(answer.webLinkURL == URL(string: "https://www.example.com/p"))
        #expect(answer.deepLinkURL == nil)
        #expect(answer.unsafeLinkError == nil)
    }

    @Test func anUnsafeDeepLinkIsDroppedAndReportedBesideTheWebLink() throws {
        let answer = try decode(#"{"webLinkUrl": "https://www.example.com/p", "mobileDeepLinkUrl": "javascript:alert(1)"}"#)
        #expect(answer.webLinkURL != nil)
        #expect(answer.deepLinkURL == nil)
        #expect(answer.unsafeLinkError?.code == .unsafeLink)
        #expect(answer.unsafeLinkError?.message.contains("the other link is still delivered") == true)
        #expect(answer.unsafeLinkError?.message.contains("_ri_") == false)
    }

    @Test(arguments: [
        (#"{"webLinkUrl": null, "mobileDeepLinkUrl": ""}"#, LinkError.Code.missingDestination),
        (#"{}"#, .missingDestination),
        (#"{"webLinkUrl": "example-app://p"}"#, .unsafeLink),
        (#"{"webLinkUrl": 42}"#, .invalidResponse),
        (#"["https://www.example.com"]"#, .invalidResponse),
        (#"{"webLinkUrl": "https://www.example.com""#, .invalidResponse),
        ("", .invalidResponse),
    ])
    func anAnswerWithoutAUsableLinkIsAnError(body: String, code: LinkError.Code) {
        let error = #expect(throws: LinkError.self) { try decode(body) }
        #expect(error?.code == code)
    }

    @Test func anErrorNamesTheKeyAndWhatWasFound() {
        let error = #expect(throws: LinkError.self) { try decode(#"{"mobileDeepLinkUrl": {"a": 1}}"#) }
        #expect(error?.message.contains("mobileDeepLinkUrl: expected a string or null, found an object") == true)
    }

    static let bodies: [(String, [UInt8])] = [
        ("32 000 nested arrays", Array((String(repeating: "[", count: 32_000) + String(repeating: "]", count: 32_000)).utf8)),
        ("10 000 nested objects", Array((String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)).utf8)),
        ("65 000 unclosed arrays", Array(String(repeating: "[", count: 65_000).utf8)),
        ("invalid UTF-8 in the links", Array(#"{"webLinkUrl": "https://w.com/"#.utf8) + [0xFF, 0xFE] + Array(#"", "mobileDeepLinkUrl": null}"#.utf8)),
        ("a number beyond Double", Array(#"{"webLinkUrl": 1e999999}"#.utf8)),
        ("a lone surrogate escape", Array(#"{"webLinkUrl": "https://w.com/\uD800"}"#.utf8)),
        ("NUL bytes", [0x7B, 0x00, 0x7D]),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: bodies.map(\.0))
    func aHostileBodyIsAnInvalidResponse(name: String) throws {
        let body = try #require(Self.bodies.first { $0.0 == name }?.1)
        #expect(body.count <= 64 * 1024)
        do {
            let answer = try ResolutionAnswer.decode(body, for: Self.url)
            Issue.record("\(name): decoded as \(answer)")
        } catch {
            #expect(error.code == .invalidResponse || error.code == .unsafeLink, "\(name): \(error)")
        }
    }
}
