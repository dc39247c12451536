import Foundation
import Testing
@testable import UniversalLinkKit

struct ResolutionPolicyTests {
    @Test(arguments: [
        "http://news.example.com/pub/acc",
        "ftp://news.example.com/pub/acc",
        "file:///etc/passwd",
        "https://127.0.0.1/pub/acc",
        "https://127.1/pub/acc",
        "https://2130706433/pub/acc",
        "https://0x7f.0.0.1/pub/acc",
        "https://0177.0.0.1/pub/acc",
        "https://10.0.0.8/pub/acc",
        "https://169.254.169.254/pub/acc",
        "https://[::1]/pub/acc",
        "https://[fe80::1]/pub/acc",
        "https://localhost/pub/acc",
        "https://LOCALHOST./pub/acc",
        "https://api.localhost/pub/acc",
        "https://news.exa%6dple.com/pub/acc",
        "https://user:secret@news.example.com/pub/acc",
        "https://a@127.0.0.1@news.example.com/pub/acc",
        "https://news.example.com:22/pub/acc",
        "https://news.example.com:8443/pub/acc",
    ])
    func refusesEverythingButHTTPSToADNSNameByDefault(url: String) throws {
        let parsed = try #require(URL(string: url))
        let error = try #require(ResolutionPolicy().check(parsed))
        #expect(error.code == .hostNotAllowed)
        #expect(error.message.hasPrefix("Refused to resolve"))
    }

    @Test func allowsHTTPSToAPublicName() {
        #expect(ResolutionPolicy().check(URL("https://news.example.com/pub/acc?_ri_=1")) == nil)
        #expect(ResolutionPolicy().check(URL("https://News.Example.COM./pub/acc")) == nil)
    }

    @Test func brandedDomainsAreExactNamesOrStrictSubdomainWildcards() {
        let policy = ResolutionPolicy(brandedDomains: ["news.example.com", "*.example.net"])
        #expect(policy.check(URL("https://NEWS.example.com/pub/acc")) == nil)
        #expect(policy.check(URL("https://a.b.example.net/pub/acc")) == nil)
        #expect(policy.check(URL("https://example.net/pub/acc"))?.code == .hostNotAllowed)
        #expect(policy.check(URL("https://evilexample.net/pub/acc"))?.code == .hostNotAllowed)
        #expect(policy.check(URL("https://other.example.com/pub/acc"))?.message
            == "Refused to resolve https://other.example.com/pub/acc: host other.example.com is not one of the branded domains (news.example.com, *.example.net).")
    }

    @Test func localHostsNeedTheOptionAndStillMeetTheAllowlist() {
        let local = ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true)
        #expect(local.check(URL("http://127.0.0.1:8080/pub/acc")) == nil)
        #expect(local.check(URL("http://[::1]:8080/pub/acc")) == nil)
        #expect(local.check(URL("http://localhost:8080/pub/acc")) == nil)
        let pinned = ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true, brandedDomains: ["news.example.com"])
        #expect(pinned.check(URL("http://127.0.0.1:8080/pub/acc"))?.code == .hostNotAllowed)
    }

    @Test func internationalisedNamesAreComparedInPunycode() {
        #expect(ResolutionPolicy().check(URL("https://münchen.de/pub/acc")) == nil)
        #expect(ResolutionPolicy(brandedDomains: ["münchen.de"]).check(URL("https://münchen.de/pub/acc")) == nil)
        #expect(ResolutionPolicy(brandedDomains: ["xn--mnchen-3ya.de"]).check(URL("https://münchen.de/pub/acc")) == nil)
        #expect(ResolutionPolicy(brandedDomains: ["*.münchen.de"]).check(URL("https://news.münchen.de/pub/acc")) == nil)
        #expect(ResolutionPolicy(brandedDomains: ["münchen.de"]).check(URL("https://munchen.de/pub/acc"))?.code == .hostNotAllowed)
    }

    @Test func theDefaultPortMayBeSpelledOutAndLocalHostsMayUseAnyPort() {
        #expect(ResolutionPolicy().check(URL("https://news.example.com:443/pub/acc")) == nil)
        #expect(ResolutionPolicy(allowsHTTP: true).check(URL("http://news.example.com:80/pub/acc")) == nil)
        #expect(ResolutionPolicy(allowsLocalHosts: true).check(URL("https://news.example.com:8443/pub/acc")) == nil)
        #expect(ResolutionPolicy().check(URL("https://news.example.com:8443/pub/acc"))?.message
            == "Refused to resolve https://news.example.com:8443/pub/acc: port 8443 is not the default port of https (allow local hosts for test servers).")
    }

    @Test func explainsTheRefusedScheme() {
        #expect(ResolutionPolicy().check(URL("http://news.example.com/pub/acc"))?.message
            == "Refused to resolve http://news.example.com/pub/acc: scheme http is not allowed; only https (allow http for local test servers only) URLs are resolved.")
    }

}
