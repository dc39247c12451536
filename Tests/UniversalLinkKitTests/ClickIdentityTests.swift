import Foundation
import Testing
import UniversalLinkKit

/// What makes two activations one click.
struct ClickIdentityTests {
    @Test(arguments: [
        ("https://news.example.com/pub/acc?_ri_=X", "HTTPS://News.Example.COM/pub/acc?_ri_=X"),
        ("https://news.example.com/pub/acc?_ri_=X", "https://news.example.com./pub/acc?_ri_=X"),
        ("https://news.example.com/pub/acc?_ri_=X", "https://news.example.com/pub/acc?_ri_=X#top"),
    ])
    func variantsOfOneClickShareTheIdentity(_ a: String, _ b: String) throws {
        #expect(ClickIdentity(try #require(URL(string: a))) == ClickIdentity(try #require(URL(string: b))))
    }

    @Test(arguments: [
        ("https://news.example.com/pub/acc?_ri_=X", "https://news.example.com/pub/acc?_ri_=Y"),
        ("https://news.example.com/pub/acc?_ri_=X", "https://news.example.com/pub/acc?_RI_=X"),
        ("https://news.example.com/pub/acc?_ri_=X", "https://news.example.com/PUB/acc?_ri_=X"),
        ("https://news.example.com/pub/acc?_ri_=X", "http://news.example.com/pub/acc?_ri_=X"),
        ("https://news.example.com/pub/acc?_ri_=X", "https://news.example.com:8443/pub/acc?_ri_=X"),
        ("https://news.example.com/pub/acc?a=%2F", "https://news.example.com/pub/acc?a=/"),
        ("https://news.example.com/pub/acc", "https://news.example.com/pub/acc?"),
    ])
    func anythingTheServerSeesDifferentlyIsAnotherClick(_ a: String, _ b: String) throws {
        #expect(ClickIdentity(try #require(URL(string: a))) != ClickIdentity(try #require(URL(string: b))))
    }

    @Test func theKeyKeepsPortPathAndQueryAsReceived() {
        #expect(ClickIdentity(URL(string: "HTTPS://A.Example.com:8443/p%20q?x=%41")!).key == "https://a.example.com:8443/p%20q?x=%41")
    }
}
