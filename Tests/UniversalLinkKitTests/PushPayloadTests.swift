import Foundation
import Testing
import UniversalLinkKit

/// The URL a push payload carries under "u", and why there is none.
struct PushPayloadTests {
    @Test func aStringOrAURLUnderUIsTheLink() {
        #expect(PushPayload(userInfo: ["u": "https://news.example.com/pub/acc?_ri_=X"]).url == URL("https://news.example.com/pub/acc?_ri_=X"))
        #expect(PushPayload(userInfo: ["u": URL("example-app://p")]).url == URL("example-app://p"))
    }

    @Test(arguments: [
        (["aps": [String: String]()] as [String: any Sendable], "no \"u\" key"),
        (["u": "products/1"], "not an absolute URL"),
        (["u": 42], "a number"),
        (["u": true], "a boolean"),
        (["u": ["a"]], "an array"),
        (["u": ["k": "v"]], "an object"),
        (["u": NSNull()], "null"),
    ])
    func anythingElseIsNoLinkWithAReason(_ userInfo: [String: any Sendable], _ reason: String) {
        let payload = PushPayload(userInfo: userInfo)
        #expect(payload.url == nil)
        #expect(payload.problem?.contains(reason) == true, "\(payload.problem ?? "nil")")
    }
}
