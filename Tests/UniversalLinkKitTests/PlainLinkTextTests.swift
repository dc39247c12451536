import Foundation
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// The one-pass reading of an ordinary link gives what `URL`'s accessors give: the same pub-web kind, the same
/// click identity and the same policy verdict, word for word, for every link, plain or not.
struct PlainLinkTextTests {
    @Test func anOrdinaryLinkIsReadInOnePass() throws {
        let url = try #require(URL(string: "HTTPS://News.Example.COM./pub/acc?_ri_=X&b=1#top"))
        let plain = try #require(PlainLinkText(url))
        #expect(plain.scheme == "https")
        #expect(plain.host == "news.example.com.")
        #expect(plain.path == "/pub/acc")
        #expect(plain.identityKey == "https://news.example.com/pub/acc?_ri_=X&b=1")
    }

    @Test(arguments: [
        ("https://news.example.com", ""), ("https://news.example.com?/pub/acc", ""), ("https://news.example.com#/a", ""),
        ("https://news.example.com//pub/acc/?a=/b#c", "//pub/acc/"), ("https://news.example.com/a%2Fb;c?", "/a%2Fb;c"),
    ])
    func thePathIsWhatURLGivesAsWritten(_ text: String, _ path: String) throws {
        let url = try #require(URL(string: text))
        let plain = try #require(PlainLinkText(url))
        #expect(plain.path == path)
        #expect(plain.path == url.path(percentEncoded: true))
    }

    @Test(arguments: [
        "https://user@news.example.com/pub/acc",  // a user
        "https://news.example.com:8443/pub/acc",  // a port
        "https://[::1]/pub/acc",  // an IP literal
        "https://news%2Eexample.com/pub/acc",  // an escape in the host
        "https://münchen.de/pub/acc",  // a non-ASCII host
        "https:///pub/acc",  // no host
        "mailto:someone@example.com",  // no authority
        "https://xn--mnchen-3ya.de/pub/acc",  // a label Foundation may have written itself
    ])
    func anythingElseIsLeftToURLsAccessors(_ text: String) throws {
        guard let url = URL(string: text) else { return }
        #expect(PlainLinkText(url) == nil)
    }

    /// Generated links, most of them ordinary, many not: kind, identity and policy agree both ways.
    // Async, yielding as it goes: under ThreadSanitizer it computes for tens of seconds, and holding one of the
    // cooperative threads (one per core) that long made the deadline tests running beside it late.
    @Test func identityAndPolicyAgreeWithURLsAccessorsOnGeneratedLinks() async throws {
        var random = SplitMix(state: 0x5EED_1DE7)
        let policies = [
            ResolutionPolicy(brandedDomains: ["news.example.com", "*.example.net"]),
            ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true),
            ResolutionPolicy(brandedDomains: ["münchen.de"]),
        ]
        let recognizers = [
            PubWebLinkRecognizer(),
            PubWebLinkRecognizer(configuration: .init(appLinkPaths: ["/Pub/acc/", "//acc"], nonAppLinkPaths: ["/", "/pub"])),
        ]
        var plainCount = 0
        var otherCount = 0
        var appLinkCount = 0
        for round in 0..<20_000 {
            if round % 256 == 0 { await Task.yield() }
            let text = Self.link(&random)
            guard let url = URL(string: text) else { continue }
            let plain = PlainLinkText(url)
            if plain == nil { otherCount += 1 } else { plainCount += 1 }
            #expect(ClickIdentity(url).key == ClickIdentity.key(readingAccessorsOf: url), "\(text)")
            for recognizer in recognizers {
                let kind = recognizer.kind(of: url)
                #expect(kind == recognizer.kind(readingAccessorsOf: url), "\(text)")
                if kind == .appLink { appLinkCount += 1 }
            }
            for policy in policies {
                let fast = policy.check(url)
                let reference = policy.check(url, plain: nil)
                #expect(fast?.code == reference?.code && fast?.message == reference?.message, "\(text)")
            }
        }
        // Both ways were exercised, each thousands of times.
        #expect(plainCount > 4_000)
        #expect(otherCount > 2_000)
        #expect(appLinkCount > 100)
    }

    /// A link with the parts a tracking link has, and now and then one that is not ordinary.
    static func link(_ random: inout SplitMix) -> String {
        func pick(_ options: [String]) -> String { options[Int(random.next() % UInt64(options.count))] }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        var text = pick(["https", "https", "https", "HTTPS", "Http", "http", "ftp", "h+s", "1x", ""])
        text += pick(["://", "://", "://", "://", ":/", ":"])
        if chance(3) { text += pick(["user@", "a:b@", "@"]) }
        let labels = Int(random.next() % 4)
        for index in 0...labels {
            if index > 0 { text += "." }
            text += pick(["news", "Example", "EXAMPLE", "com", "net", "a-b", "x_y", "", "127", "0", "localhost", "münchen", "xn--mnchen-3ya", "%41"])
        }
        if chance(5) { text += "." }
        if chance(3) { text += pick([":443", ":80", ":8080", ":", ":x"]) }
        if chance(2) { text = text.replacingOccurrences(of: "://", with: "://[::1]") }
        let segments = Int(random.next() % 4)
        for _ in 0..<segments { text += "/" + pick(["pub", "acc", "Pub", "a%2Fb", "", "..", ".", "é", "a b", "[x]", "~u", "a;b"]) }
        if chance(70) {
            text += "?" + pick(["", "_ri_=X0Gzc2X%3DYQ", "a=1&b=2", "a=%20", "q=é", "x=[1]", "?", "a=b#c"])
        }
        if chance(20) { text += "#" + pick(["", "top", "a?b", "#", "%41"]) }
        return text
    }
}
