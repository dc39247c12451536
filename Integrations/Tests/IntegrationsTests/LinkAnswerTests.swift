import Foundation
import HTTPTypes
@testable import LinkServiceCore
import Testing

struct LinkAnswerTests {
    @Test(arguments: [
        ("notPubWebLink", 400), ("invalidRequest", 400), ("hostNotAllowed", 403), ("missingDestination", 404),
        ("timeout", 504), ("shuttingDown", 503), ("cancelled", 503), ("network", 502), ("httpStatus", 502),
        ("invalidResponse", 502), ("responseTooLarge", 502), ("unsafeLink", 502),
    ])
    func eachErrorCodeHasTheContractsStatus(code: String, status: Int) {
        let answer = LinkAnswer(requestedURL: "x", isPubWeb: true, isDuplicate: false, error: .init(code: code, message: "m"))
        #expect(answer.openStatus.code == status)
    }

    @Test func aLinkWhoseUnsafeDeepLinkWasDroppedStillRedirectsToItsWebLink() {
        let answer = LinkAnswer(
            requestedURL: "x", webLinkURL: URL(string: "https://www.example.com/"), isPubWeb: true, isDuplicate: false,
            error: .init(code: "unsafeLink", message: "dropped the deep link")
        )
        #expect(answer.openStatus == .found)
        #expect(answer.location?.absoluteString == "https://www.example.com/")
    }
}
