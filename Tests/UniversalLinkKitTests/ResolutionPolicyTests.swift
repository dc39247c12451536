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

    @Test(arguments: ["0x", "0X1f", "0xg", "00x1", "x0", "1.0x7F", "a.0x", "a.", ".", "", "127.1", "a.b1", "a.1b", "a..1"])
    func theByteIPv4TestAgreesWithTheCharacterOneOnEdgeCases(host: String) {
        #expect(ResolutionPolicy.isIPv4Literal(host) == ResolutionPolicy.isIPv4LiteralByCharacters(host))
    }

    @Test(arguments: [
        "localhost", "a.localhost", "a.b.localhost", "xlocalhost", "localhost.", "localhost.com", "localhos", "ocalhost",
        ".localhost", "", "l", "a-localhost", "localhost.localhost", "localhostlocalhost",
    ])
    func theByteLocalhostTestAgreesWithTheStringOne(host: String) {
        #expect(ResolutionPolicy.isLocalhostASCII(host) == (host == "localhost" || host.hasSuffix(".localhost")))
    }

    /// The byte-wise IPv4 and colon tests against the Character-wise ones they replace, on generated hosts (a fixed
    /// seed and a fresh one per run; `ULK_PROPERTY_SEED` replays one).
    @Test(arguments: [2026, UInt64.random(in: 1...UInt64.max)])
    func theByteHostTestsAgreeWithTheCharacterOnesOnGeneratedHosts(seed: UInt64) {
        var generator = SplitMix(state: SplitMix.propertySeed(seed))
        func next() -> UInt64 { generator.next() }
        let pieces = ["0", "1", "7", "9", "x", "X", "0x", "a", "f", "F", "g", "z", ".", ".", ":", "-", "_", "é", "１", "Ａ"]
        for _ in 0..<5_000 {
            let host = (0..<Int(next() % 9)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined()
            #expect(ResolutionPolicy.isIPv4Literal(host) == ResolutionPolicy.isIPv4LiteralByCharacters(host), "\(host)")
            #expect(ResolutionPolicy.containsColon(host) == host.contains(":"), "\(host)")
        }
    }

    /// The host the policy checks, against what it took before: URLComponents' `encodedHost`, else the URL's host.
    @Test(arguments: [
        "https://münchen.de/", "https://MÜNCHEN.de/x", "https://xn--mnchen-3ya.de/", "https://[::1]/",
        "https://[fe80::1%25eth0]/", "https://News.Example.COM./a?b", "https://news.exa%6dple.com/",
        "https://a@127.0.0.1@news.example.com/", "http://127.0.0.1:8080/pub/acc?x=1", "https://0x7f.0.0.1/",
        "https://%E2%82%AC.com/", "https://€.com/", "https:///path", "https://a_b-c.example.com:443/",
        "https://例え.テスト/", "https://[::FFFF:127.0.0.1]/", "https://example.com%2e/", "file:///etc/passwd",
        "mailto:a@example.com", "https://user:pw@host/", "https://[0]/", "https://[v7.ab]/", "https://a.b/[x]",
    ])
    func theHostShortcutAgreesWithURLComponents(url: String) throws {
        let parsed = try #require(URL(string: url))
        let reference = URLComponents(url: parsed, resolvingAgainstBaseURL: false)?.encodedHost ?? parsed.host(percentEncoded: true)
        #expect(ResolutionPolicy.encodedHost(of: parsed) == reference)
    }

    @Test(arguments: [2026, UInt64.random(in: 1...UInt64.max)])
    func theHostShortcutAgreesWithURLComponentsOnGeneratedURLs(seed: UInt64) {
        var generator = SplitMix(state: SplitMix.propertySeed(seed))
        func next() -> UInt64 { generator.next() }
        let pieces = ["a", "B", "0", "7", "-", "_", ".", "é", "Ü", "€", "%41", "%2e", "%", "xn--", "[", "]", ":", "::1", "@",
                      "u:p@", ":443", ":8", "v7.", "/", "?", "#"]
        for _ in 0..<5_000 {
            let host = (0..<Int(next() % 7)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined()
            guard let url = URL(string: "https://\(host)/pub/acc?_ri_=X") else { continue }
            let reference = URLComponents(url: url, resolvingAgainstBaseURL: false)?.encodedHost ?? url.host(percentEncoded: true)
            #expect(ResolutionPolicy.encodedHost(of: url) == reference, "\(url.absoluteString)")
        }
    }
}
