import Testing
@testable import AssociatedDomains

/// Byte-level URL cutting: what the matcher compares, exactly as written.
struct URLPartsTests {
    func parts(_ url: String) throws -> (String, String, String, String?, String?) {
        let p = try #require(URLParts(url))
        func s(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }
        return (s(p.scheme), s(p.host), s(p.path), p.query.map(s), p.fragment.map(s))
    }

    @Test func cutsAtTheFirstQuestionMarkAndTheFirstHash() throws {
        let p = try parts("HTTPS://User:pw@News.Example.COM:8443/a%20b/c?x=1&y=%2F?z#frag?not=query#2")
        #expect(p.0 == "https")
        #expect(p.1 == "news.example.com")
        #expect(p.2 == "/a%20b/c")
        #expect(p.3 == "x=1&y=%2F?z")
        #expect(p.4 == "frag?not=query#2")
    }

    @Test func aHashBeforeAQuestionMarkStartsTheFragment() throws {
        let p = try parts("https://example.com/a#b?c")
        #expect(p.2 == "/a")
        #expect(p.3 == nil)
        #expect(p.4 == "b?c")
    }

    @Test func emptyQueryAndFragmentDifferFromMissingOnes() throws {
        let p = try parts("https://example.com?#")
        #expect(p.2 == "")
        #expect(p.3 == "")
        #expect(p.4 == "")
    }

    @Test func ipv6HostsLoseTheirBrackets() throws {
        #expect(try parts("https://[::1]:8080/x").1 == "::1")
    }

    @Test(arguments: ["", "example.com/x", "/x", "https:/x", "1http://x", "ht tp://x"])
    func relativeOrMalformedURLsAreRefused(url: String) {
        #expect(URLParts(url) == nil)
    }

    @Test(arguments: [("", "/"), ("/", "/"), ("//", "/"), ("//a//", "/a"), ("/a/b/", "/a/b"), ("a/", "a")])
    func pathsNormaliseAsIOSDoes(path: String, normalised: String) {
        #expect(String(decoding: URLParts.normalisedPath(Array(path.utf8)), as: UTF8.self) == normalised)
    }

    @Test func percentDecodingLeavesBadEscapesAndPlusAlone() {
        #expect(String(decoding: ASCII.percentDecoded(Array("a%20b%2x%zz+%".utf8)), as: UTF8.self) == "a b%2x%zz+%")
    }
}
