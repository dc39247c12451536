import Foundation
import HTTPTypes
import Testing
import UniversalLinkKit
@testable import UniversalLinkKitHummingbird

struct LinkAnswerTests {
    @Test func aLinkWhoseUnsafeDeepLinkWasDroppedStillRedirectsToItsWebLink() {
        let answer = LinkAnswer(
            requestedURL: "x", webLinkURL: URL(string: "https://www.example.com/"), isPubWeb: true, isDuplicate: false,
            error: .init(code: .unsafeLink, message: "dropped the deep link")
        )
        #expect(answer.openStatus == .found)
        #expect(answer.location?.absoluteString == "https://www.example.com/")
    }

    @Test func anInvalidRequestIsABadRequest() {
        #expect(LinkAnswer.invalidRequest("", message: "m").openStatus == .badRequest)
        #expect(LinkAnswer.invalidRequest("", message: "m").outcome == "invalidRequest")
    }
}
