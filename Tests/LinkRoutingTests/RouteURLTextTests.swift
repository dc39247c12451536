import Foundation
import Testing
@testable import LinkRouting

/// `route(_: String)` skips `URL(string:)` only for text this check accepts: accepting must imply that Foundation
/// parses the text, or a string that is not a URL would reach a handler.
struct RouteURLTextTests {
    @Test(arguments: [
        "https://www.example.com/res9/42/comments/7?utm_source=mail", "myapp://user/view/joeldev", "myapp:",
        "myapp://", "tests:/", "x+y.z-w://a", "https://news.example.com/pub/acc?_ri_=X%2BY&_ei_=a+b#frag/x?y",
        "app://a/:b@c/!$&'()*+,;=", "myapp:///a/", "myapp://user#/view/x", "HTTP://", "app://%41b/",
    ])
    func commonURLsAreAccepted(text: String) {
        #expect(RouteURLText.certainlyParses(text))
        #expect(URL(string: text) != nil)
    }

    @Test(arguments: [
        "", "/relative/path", "1x://a", "x://a%2/", "x://a/%zz", "x://a/b c", "x://a#b#c", "x://[::1]/", "x://a@b/",
        "x://a:80/", "x://caf\u{e9}/", "x://a/\u{e9}", "x://a/%4", "x://a/%", "x://a/b\"c", "x://a/b|c", "x://a/{b}",
        "x://a/b\\c", "::", "x\u{0}://a",
    ])
    func anythingOutsideTheSubsetGoesThroughFoundation(text: String) {
        #expect(!RouteURLText.certainlyParses(text))
    }

    /// The property: over strings drawn mostly from the characters the check accepts (so that it often says yes),
    /// plus characters it must reject, every accepted string parses with `URL(string:)`.
    @Test func acceptedTextAlwaysParsesWithFoundation() {
        var generator = SegmentIndexTests.Generator(state: UInt64.random(in: 0...UInt64.max))
        let seed = generator.state
        let schemes = ["https", "http", "myapp", "a", "x+y", "z.-9", "HTTPS", "file", "tel", "mailto", "data", "about"]
        let pieces = "abcXYZ019-._~!$&'()*+,;=:@/?#%%".map { String($0) }
            + ["%41", "%e2", "%2F", "%00", "%ff", "//", "..", "%zz", "[", "]", " ", "\u{e9}", "\"", "<", "\\", "^", "`", "{", "|"]
        var accepted = 0
        var checked = 0
        for round in 0..<20_000 {
            var text = schemes.randomElement(using: &generator) ?? "x"
            switch round % 4 {
            case 0: text += "://"
            case 1: text += ":"
            case 2: text += ":/"
            default: text += "://" + ["", "www.example.com", "localhost", "a..b", "-", ".", "%41"].randomElement(using: &generator)!
            }
            for _ in 0..<Int.random(in: 0...16, using: &generator) {
                text += pieces.randomElement(using: &generator) ?? "a"
            }
            checked += 1
            if RouteURLText.certainlyParses(text) {
                accepted += 1
                #expect(URL(string: text) != nil, "accepted \(text.debugDescription) (seed \(seed))")
            }
        }
        // The property says nothing unless many strings were accepted, and the check must reject some too.
        #expect(accepted > checked / 10)
        #expect(accepted < checked)
    }

    @Test func routingAStringMakesItsURLOnlyWhenAsked() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/items/:id", handler: recorder.handler())
        let text = "https://www.example.com/items/42?x=1#top=1"
        #expect(router.route(text))
        let parameters = try #require(recorder.last)
        #expect(parameters["id"] == "42")
        #expect(parameters.url == URL(string: text))
        #expect(parameters.url.absoluteString == text)
        #expect(parameters[RouteKey.url] == text)
    }

    @Test func anUnmatchedStringStillReachesTheUnmatchedHandlerAsAURL() throws {
        let router = LinkRouter()
        let seen = Recorder()
        router.addRoute("/items/:id") { _ in true }
        router.setUnmatchedURLHandler { url, _ in _ = seen.handler()(RouteParameters(values: [:], url: url)) }
        #expect(!router.route("https://www.example.com/nothing/here"))
        #expect(seen.last?.url == URL(string: "https://www.example.com/nothing/here"))
        // Text that is not a URL calls nothing.
        #expect(!router.route("x://a%2/items/1"))
        #expect(!router.canRoute("x://a%2/items/1"))
        #expect(seen.all.count == 1)
    }
}
