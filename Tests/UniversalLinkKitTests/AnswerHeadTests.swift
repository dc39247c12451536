import Foundation
import Testing
@testable import UniversalLinkKit

/// An answer's header block, read as bytes, against the text reading it replaced.
struct AnswerHeadTests {
    /// How `CurlMulti` read a header block before ``AnswerHead``: the whole block as `String`, Foundation's trimming.
    static func textReading(_ block: [UInt8]) -> [String: String] {
        var headers: [String: String] = [:]
        let text = String(decoding: block, as: UTF8.self)
        for line in text.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if headers[name] == nil { headers[name] = value }
        }
        return headers
    }

    static func fields(_ block: [UInt8]) -> [String: String] {
        block.withUnsafeBytes { AnswerHead.fields($0) }
    }

    @Test func namesAreLowerCasedValuesTrimmedAndTheFirstOfARepeatedNameKept() {
        let block = "Content-Type: application/json\r\nRetry-After:\t 3 \t\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\n"
            + "no colon here\r\n\r\nX-Empty:\r\nLocation: https://example.com/a:b\r\n"
        #expect(Self.fields(Array(block.utf8)) == [
            "content-type": "application/json", "retry-after": "3", "set-cookie": "a=1", "x-empty": "",
            "location": "https://example.com/a:b",
        ])
        #expect(Self.fields([]) == [:])
    }

    @Test func aLineOutsideASCIIIsReadAsText() {
        // U+00A0 (no-break space) and U+3000 are whitespace to Foundation; U+0301 joins the colon before it into
        // one character, which is then no colon; 0xFF is not UTF-8.
        let block = Array("X-A: \u{A0}é\u{3000}\r\nX-B:\u{301} v\r\nX-B: w\r\n".utf8) + [0x58, 0x3A, 0xFF, 0x0D, 0x0A]
        #expect(Self.fields(block) == ["x-a": "é", "x-b": "w", "x": "\u{FFFD}"])
        #expect(Self.fields(block) == Self.textReading(block))
    }

    /// 20 000 generated blocks, of ASCII and not, well formed and not (a fixed seed and a fresh one per run;
    /// `ULK_PROPERTY_SEED` replays one).
    @Test(arguments: [2026, UInt64.random(in: 1...UInt64.max)])
    func bytesAndTextAgreeOnGeneratedBlocks(seed: UInt64) async {
        var generator = SplitMix(state: SplitMix.propertySeed(seed))
        let pieces: [[UInt8]] = [
            "Content-Type", "retry-after", "X-Ü", "A", ":", ":", ":", " ", " ", "\t", "\r\n", "\r\n", "\r\n", "\r", "\n",
            "value", "3", "Z", "@", "[", "`", "{", "\u{0B}", "\u{0C}", "\u{1F}",
            "\u{A0}", "\u{3000}", "\u{200B}", "\u{301}", "é", "ß", "İ", "\u{0}", "\u{7F}",
        ].map { Array($0.utf8) } + [[0xFF], [0xC2], [0x80], [0xE2, 0x80]]
        for round in 0..<20_000 {
            if round % 512 == 0 { await Task.yield() }
            var block: [UInt8] = []
            for _ in 0..<Int(generator.next() % 24) { block += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let (bytes, text) = (Self.fields(block), Self.textReading(block))
            #expect(bytes == text, "seed \(seed), block \(block)")
            if bytes != text { return }
        }
    }
}
