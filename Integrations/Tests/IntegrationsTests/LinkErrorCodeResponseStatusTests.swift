import HTTPTypes
import Testing
import UniversalLinkKit
import UniversalLinkKitHummingbird

/// The one status mapping, as a table a reader can check against the README's.
struct LinkErrorCodeResponseStatusTests {
    @Test(arguments: [
        (LinkError.Code.notPubWebLink, 400), (.hostNotAllowed, 403), (.missingDestination, 404), (.timeout, 504),
        (.shuttingDown, 503), (.cancelled, 503), (.network, 502), (.httpStatus, 502), (.invalidResponse, 502),
        (.responseTooLarge, 502), (.unsafeLink, 502),
    ])
    func eachCodeHasTheContractsStatus(code: LinkError.Code, status: Int) {
        #expect(code.responseStatus.code == status)
    }
}
