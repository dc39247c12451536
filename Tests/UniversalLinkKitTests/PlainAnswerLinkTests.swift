import Foundation
import Testing
@testable import UniversalLinkKit

/// The answer's links screened on their text give what screening them as `URL`s gives: the same links, the same
/// errors, word for word; and a link kept as text is the same link as its `URL` to every reader.
struct PlainAnswerLinkTests {
    static let requested = URL(string: "https://news.example.com/pub/acc?_ri_=X")!

    /// The outcome of a screening, comparable: the links as `URL`s and their kinds, or the error's code and message.
    static func outcome(_ screen: () throws(LinkError) -> ResolutionResponse) -> String {
        do {
            let response = try screen()
            return "deep \(String(describing: response.deepLinkURL)) web \(String(describing: response.webLinkURL))"
                + " error \(String(describing: response.unsafeLinkError))"
        } catch {
            return "error \(error.code) \(error.message)"
        }
    }

    @Test func anOrdinaryAnswerIsScreenedOnItsText() throws {
        #expect(PlainAnswerLink.screen("https://www.example.com/products/1234?x=1#top") == .web)
        #expect(PlainAnswerLink.screen("HTTP://WWW.example.com") == .web)
        #expect(PlainAnswerLink.screen("example-app://products/1234") == .deepLinkOnly)
        #expect(PlainAnswerLink.screen("example-app:products") == .deepLinkOnly)
        let response = try ResolutionResponse.screened(
            web: "https://www.example.com/p", deep: "example-app://p", requestedURL: Self.requested)
        #expect(response.deepLink?.string == "example-app://p")
        #expect(response.webLinkURL == URL(string: "https://www.example.com/p"))
    }

    @Test(arguments: [
        "javascript:alert(1)", "JavaScript://x/%0Aalert(1)", "data:text/html,x", "file:///etc/passwd", "vbscript:x",
        "http:/no-host", "https:///path", "https://user@host/", "https://host:443/", "https://[::1]/",
        "https://xn--mnchen-3ya.de/", "https://host/a b", "https://host/é", "https://host/%zz", "https://host/#a#b",
        "https://host/[x]", "no-scheme/path", ":empty-scheme", "1x://host", "",
    ])
    func anythingElseIsLeftToURL(_ text: String) {
        #expect(PlainAnswerLink.screen(text) == nil)
    }

    /// Generated pairs of links, many plain, many not: both screenings agree, and every plain link parses verbatim.
    // Async, yielding as it goes, for the same reason as `PlainLinkTextTests`' generated links.
    @Test func theTextScreeningAgreesWithURLsOnGeneratedLinks() async {
        var random = SplitMix(state: 0xA115_0E12)
        var plainCount = 0
        var otherCount = 0
        for round in 0..<20_000 {
            if round % 256 == 0 { await Task.yield() }
            let deep = random.next() % 5 == 0 ? nil : Self.link(&random)
            let web = random.next() % 5 == 0 ? nil : Self.link(&random)
            for text in [deep, web].compactMap({ $0 }) {
                guard PlainAnswerLink.screen(text) != nil else { otherCount += 1; continue }
                plainCount += 1
                let url = URL(string: text)
                #expect(url?.relativeString == text && url?.absoluteString == text, "\(text)")
            }
            let fast = Self.outcome { () throws(LinkError) in
                try ResolutionResponse.screened(web: web, deep: deep, requestedURL: Self.requested)
            }
            let reference = Self.outcome { () throws(LinkError) in
                try ResolutionResponse.screenedAsURLs(web: web, deep: deep, requestedURL: Self.requested)
            }
            #expect(fast == reference, "deep \(String(describing: deep)) web \(String(describing: web))")
        }
        // Both ways were exercised, each thousands of times.
        #expect(plainCount > 5_000)
        #expect(otherCount > 5_000)
    }

    @Test func aLinkKeptAsTextIsTheSameLinkAsItsURL() throws {
        let text = "https://www.example.com/p?a=1"
        let url = try #require(URL(string: text))
        #expect(AnswerLink(plain: text) == AnswerLink(url))
        #expect(AnswerLink(plain: text).hashValue == AnswerLink(url).hashValue)
        #expect(AnswerLink(plain: text) != AnswerLink(plain: "https://www.example.com/q"))

        // A resolved link from an answer equals one built from URLs, and reads and broadcasts the same.
        let fromAnswer = ResolvedLink(
            requestedURL: Self.requested, deepLink: AnswerLink(plain: "example-app://p"), webLink: AnswerLink(plain: text),
            isPubWeb: true, error: nil)
        let fromURLs = ResolvedLink(
            requestedURL: Self.requested, deepLinkURL: URL(string: "example-app://p"), webLinkURL: url, isPubWeb: true)
        #expect(fromAnswer == fromURLs)
        #expect(Set([fromAnswer, fromURLs]).count == 1)
        #expect(fromAnswer.destinationURL == URL(string: "example-app://p"))
        #expect(fromAnswer.userInfo[PIOResolvedWeblinkURL] as? String == text)
        #expect(fromURLs.userInfo[PIOResolvedWeblinkURL] as? String == text)

        var changed = fromAnswer
        changed.webLinkURL = URL(string: "https://www.example.com/other")
        #expect(changed.webLinkURL == URL(string: "https://www.example.com/other"))
        #expect(changed != fromAnswer)
    }

    /// An answer's link: mostly the shapes campaigns use, often with something `URL` must decide.
    static func link(_ random: inout SplitMix) -> String {
        func pick(_ options: [String]) -> String { options[Int(random.next() % UInt64(options.count))] }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        // Each part is an ordinary one most of the time and, now and then, one `URL` must decide.
        func part(_ ordinary: [String], _ other: [String]) -> String { chance(8) ? pick(other) : pick(ordinary) }
        var text = part(
            ["https", "https", "http", "HTTPS", "example-app", "example-app", "app+x", "a.b-c"],
            ["javascript", "JavaScript", "data", "file", "vbscript", "1x", "", "ht tp"])
        text += part([":", "://", "://", "://"], [":/", "//", ""])
        if chance(80) {
            let labels = Int(random.next() % 3)
            for index in 0...labels {
                if index > 0 { text += "." }
                text += part(["www", "Example", "com", "a-b", "x_y", "127"], ["", "xn--mnchen-3ya", "münchen", "%41", "h~"])
            }
            if chance(3) { text += pick([":443", ":", "@x", "user@"]) }
        }
        let segments = Int(random.next() % 4)
        for _ in 0..<segments {
            text += "/" + part(
                ["products", "1234", "", "..", "a%2Fb", "~u", "a;b=c", "!$&'()*+,", "@:"],
                ["a%2", "%zz", "é", "a b", "[x]", "\"", "<>", "\\", "^`{|}"])
        }
        if chance(50) { text += "?" + part(["", "a=1&b=2", "a=%20", "?", "a=b/c?d"], ["q=é", "x=[1]", "%", "a b"]) }
        if chance(20) { text += "#" + part(["", "top", "a?b/c", "%41"], ["#", "a#b", "é"]) }
        return text
    }
}
