import Foundation
import Testing
@testable import UniversalLinkKit

/// The plain-answer reader against JSONSerialization, the path it short-cuts: on every body it accepts,
/// ``ResolutionResponse/decode(_:requestedURL:)`` must answer exactly what the JSONSerialization path answers.
struct PlainAnswerReaderTests {
    static let url = URL(string: "https://news.example.com/pub/acc?_ri_=X")!

    /// Both decoders' outcomes, comparable: the response, or the error's code and message.
    static func outcome(_ decode: () throws(LinkError) -> ResolutionResponse) -> String {
        do {
            return "ok \(try decode())"
        } catch {
            return "error \(error.code) \(error.message)"
        }
    }

    static func agree(_ body: Data) -> (Bool, String) {
        let fast = outcome { () throws(LinkError) in try ResolutionResponse.decode(body, requestedURL: url) }
        let reference = outcome { () throws(LinkError) in try ResolutionResponse.decodeWithJSONSerialization(body, requestedURL: url) }
        return (fast == reference, "\(String(decoding: body, as: UTF8.self).debugDescription): \(fast) vs \(reference)")
    }

    static func accepted(_ body: String) -> Bool {
        Data(body.utf8).withUnsafeBytes(PlainAnswerReader.read) != nil
    }

    @Test(arguments: [
        #"{"webLinkUrl":"https://www.example.com/products/1234","mobileDeepLinkUrl":"example-app://products/1234"}"#,
        #" {"mobileDeepLinkUrl" : null , "webLinkUrl" : "https:\/\/w.example.com\/a?b=1\"c\\"}"#,
        #"{"webLinkUrl":"","mobileDeepLinkUrl":"example-app://p","other":"x"}"#,
        "{}", "{ }", "\t{\r\n}\n",
    ])
    func plainAnswersAreReadDirectly(body: String) {
        #expect(Self.accepted(body))
        let (same, detail) = Self.agree(Data(body.utf8))
        #expect(same, "\(detail)")
    }

    @Test(arguments: [
        #"{"webLinkUrl":1}"#, #"{"webLinkUrl":true}"#, #"{"webLinkUrl":["x"]}"#, #"{"webLinkUrl":"\u0041"}"#,
        #"{"webLinkUrl":"é"}"#, #"{"webLinkUrl":"a\nb"}"#, #"{"webLinkUrl":"x","webLinkUrl":"y"}"#,
        #"{"webLinkUrl":"x",}"#, #"{"webLinkUrl":"x"} x"#, "\u{FEFF}{}", #"["x"]"#, #""x""#, "null", "",
        #"{"webLinkUrl":nul}"#, #"{"webLinkUrl" "x"}"#, "{\"webLinkUrl\":\"\u{7F}\"}", "{\"webLinkUrl\":\"\u{01}\"}",
    ])
    func everythingElseIsLeftToJSONSerialization(body: String) {
        #expect(!Self.accepted(body))
        let (same, detail) = Self.agree(Data(body.utf8))
        #expect(same, "\(detail)")
    }

    /// 20 000 generated bodies, mostly plain answers, many of them slightly wrong (a fixed seed and a fresh one
    /// per run; `ULK_PROPERTY_SEED` replays one).
    @Test(arguments: [2026, UInt64.random(in: 1...UInt64.max)])
    // Async, yielding as it goes: under ThreadSanitizer it computes for tens of seconds, and holding one of the
    // cooperative threads (one per core) that long made the deadline tests running beside it late.
    func decodingAgreesWithJSONSerializationOnGeneratedBodies(seed: UInt64) async {
        var generator = SplitMix(state: SplitMix.propertySeed(seed))
        func next(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        func pick(_ options: [String]) -> String { options[next(options.count)] }
        let keys = [#""webLinkUrl""#, #""mobileDeepLinkUrl""#, #""other""#, #""""#, #""webLinkURL""#, #""web\/LinkUrl""#,
                    #""mobile\u0044eepLinkUrl""#, #""\"""#]
        let values = [#""https://www.example.com/p?q=1&r=%20""#, #""https:\/\/w.example.com\/x""#, #""example-app://products/1""#,
                      #""javascript:alert(1)""#, #""data:text/html,x""#, #""ftp://example.com/""#, #""not a url""#, #""""#,
                      "null", #""a\"b""#, #""a\\b""#, #""\\""#, #""https://w.example.com/\u00e9""#, "1", "true", "[]", "{}",
                      #""https://é.example/""#, #""//example.com/x""#, #""https://""#, #""mailto:a@b.c""#, "nul", #""x"#]
        let gaps = ["", "", "", " ", "\n", "\t", "\r\n", "  "]
        var accepted = 0
        for round in 0..<20_000 {
            if round % 256 == 0 { await Task.yield() }
            var body = pick(gaps) + (next(40) == 0 ? pick(["[", "\u{FEFF}{", "\"x\"", ""]) : "{")
            let members = next(5)
            for member in 0..<members {
                if member > 0 { body += pick(gaps) + (next(30) == 0 ? pick(["", ";", ",,"]) : ",") }
                body += pick(gaps) + pick(keys) + pick(gaps) + (next(40) == 0 ? "" : ":") + pick(gaps) + pick(values)
            }
            body += pick(gaps) + (next(30) == 0 ? pick(["", ",}", "}}", "} x", "]"]) : "}") + pick(gaps)
            var data = Data(body.utf8)
            if next(20) == 0, !data.isEmpty { data[next(data.count)] = UInt8(next(256)) }
            if data.withUnsafeBytes(PlainAnswerReader.read) != nil { accepted += 1 }
            let (same, detail) = Self.agree(data)
            #expect(same, "seed \(seed): \(detail)")
        }
        // The generator must exercise the reader itself, not only the fallback.
        #expect(accepted > 5_000)
    }
}
