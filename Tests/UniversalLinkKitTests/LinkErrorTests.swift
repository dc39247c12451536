import Foundation
import Testing
@testable import UniversalLinkKit

struct LinkErrorTests {
    @Test(arguments: [
        (LinkError.Code.hostNotAllowed, "hostNotAllowed", 1),
        (.timeout, "timeout", 2),
        (.network, "network", 3),
        (.httpStatus, "httpStatus", 4),
        (.invalidResponse, "invalidResponse", 5),
        (.responseTooLarge, "responseTooLarge", 6),
        (.unsafeLink, "unsafeLink", 7),
        (.missingDestination, "missingDestination", 8),
        (.cancelled, "cancelled", 9),
        (.tls, "tls", 13),
    ])
    func codesAreSpelledAsTheirNamesAndBridgeToStableIntegers(code: LinkError.Code, name: String, number: Int) {
        let error = LinkError(code: code, message: "what happened")
        #expect(code.description == name)
        #expect(code.rawValue == number)
        #expect(LinkError.Code(rawValue: number) == code)
        let bridged = error as NSError
        #expect(bridged.domain == "UniversalLinkKit.LinkError")
        #expect(bridged.code == number)
        #expect(bridged.localizedDescription == "what happened")
        #expect(bridged.userInfo["LinkErrorCode"] as? String == name)
    }

    @Test func descriptionNamesTheCodeThenTheMessage() {
        let error = LinkError(code: .timeout, message: "No answer.")
        #expect(error.description == "timeout: No answer.")
    }

    @Test func equalityIgnoresTheUnderlyingError() {
        let first = LinkError(code: .network, message: "m", underlyingError: TransportError(.noAnswer))
        let second = LinkError(code: .network, message: "m")
        #expect(first == second)
        #expect(first != LinkError(code: .network, message: "other"))
    }
}
