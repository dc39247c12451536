import Foundation
import Testing
@testable import UniversalLinkKit

/// The redirect chain as a value.
struct RedirectStateTests {
    static let link = URL("https://news.example.com/pub/acc?_ri_=X")

    func state(max: Int = 3, policy: ResolutionPolicy = .init()) -> RedirectState {
        RedirectState(requestedURL: Self.link, maxRedirects: max, policy: policy)
    }

    @Test func aRelativeLocationResolvesAgainstTheCurrentURL() throws {
        var redirects = state()
        let target = try redirects.follow(TransportResponse(statusCode: 302, headerFields: ["Location": "/next?q=1"]))
        #expect(target == URL("https://news.example.com/next?q=1"))
        #expect(redirects.current == target)
        #expect(redirects.count == 1)
    }

    @Test(arguments: [[:], ["Location": ""], ["Location": "http://[::1"]])
    func aRedirectWithoutAUsableLocationEndsTheResolution(_ headers: [String: String]) {
        var redirects = state()
        #expect(throws: LinkError.self) { try redirects.follow(TransportResponse(statusCode: 301, headerFields: headers)) }
        #expect(redirects.current == Self.link)
    }

    @Test func oneRedirectMoreThanAllowedIsAnHTTPStatusError() throws {
        var redirects = state(max: 1)
        _ = try redirects.follow(TransportResponse(statusCode: 302, headerFields: ["Location": "/a"]))
        do {
            _ = try redirects.follow(TransportResponse(statusCode: 307, headerFields: ["Location": "/b"]))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .httpStatus)
            #expect(error.statusCode == 307)
            #expect(error.message.contains("more than 1 redirects"))
        }
    }

    @Test func aTargetThePolicyRefusesIsHostNotAllowed() {
        var redirects = state(policy: ResolutionPolicy(brandedDomains: ["news.example.com"]))
        do {
            _ = try redirects.follow(TransportResponse(statusCode: 302, headerFields: ["Location": "https://evil.example.org/x"]))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .hostNotAllowed)
        }
    }

    @Test func onlyTheFiveRedirectStatusesAreFollowed() {
        #expect([301, 302, 303, 307, 308].allSatisfy(RedirectState.isRedirect))
        #expect(![300, 304, 305, 306, 200, 404].contains(where: RedirectState.isRedirect))
    }
}
