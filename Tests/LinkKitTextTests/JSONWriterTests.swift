import Foundation
import Testing
@testable import _LinkKitText

/// The JSON writer: every escape, each style's layout, and text that reads back to the same document.
struct JSONWriterTests {
    @Test func everyCharacterThatJSONEscapesIsEscapedAndNothingElse() {
        var text = ""
        for value in 0..<0x20 { text.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
        text += "\"\\/\u{7F}é\u{2028}\u{2029}😀"
        let expected = #"\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
            + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f"#
            + "\\\"\\\\/\u{7F}é\u{2028}\u{2029}😀"
        #expect(JSONWriter.escape(text) == expected)
        #expect(JSONWriter.text(.string(text), style: .compact) == "\"" + expected + "\"")
    }

    static let sample = JSONValue.object([
        ("apps", .array([])),
        ("details", .array([.object([
            ("appIDs", .array([.string("A.b"), .string("C.d")])),
            ("components", .array([.object([("/", .string("/x")), ("exclude", .bool(true))]), .object([])])),
        ])])),
        ("n", .null), ("i", .integer(-42)), ("f", .number("1.5e3")),
    ])

    @Test func theCompactStyleIsOneLineWithoutSpaces() {
        #expect(JSONWriter.text(Self.sample, style: .compact)
            == #"{"apps":[],"details":[{"appIDs":["A.b","C.d"],"components":[{"/":"/x","exclude":true},{}]}],"n":null,"i":-42,"f":1.5e3}"#)
    }

    @Test func theSpacedStyleIsOneLineForMessages() {
        #expect(JSONWriter.text(.object([("/", .string("/pub/acc")), ("exclude", .bool(true))]), style: .spaced)
            == #"{"/": "/pub/acc", "exclude": true}"#)
    }

    @Test func theIndentedStyleKeepsShortStringArraysOnOneLine() {
        #expect(JSONWriter.text(Self.sample, style: .indented) == """
            {
              "apps": [],
              "details": [
                {
                  "appIDs": ["A.b", "C.d"],
                  "components": [
                    {
                      "/": "/x",
                      "exclude": true
                    },
                    {}
                  ]
                }
              ],
              "n": null,
              "i": -42,
              "f": 1.5e3
            }
            """)
        let long = JSONValue.object([("apps", .array((0..<10).map { .string("ABCDE12345.com.example.app\($0)") }))])
        #expect(JSONWriter.text(long, style: .indented).split(separator: "\n").count == 14)
    }

    @Test func theFoundationPrettyStyleIsJSONSerializationsOnLinux() throws {
        let object: [String: Any] = ["a": [] as [Any], "b": ["c": 1, "d": [true, NSNull()]] as [String: Any], "e": [String: Any]()]
        let expected = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        let value = JSONValue.object([
            ("a", .array([])), ("b", .object([("c", .integer(1)), ("d", .array([.bool(true), .null]))])), ("e", .object([])),
        ])
        #expect(JSONWriter.text(value, style: .foundationPretty) == String(decoding: expected, as: UTF8.self))
    }

    @Test(arguments: [JSONWriter.Style.compact, .spaced, .indented, .foundationPretty])
    func writtenTextReadsBackToTheSameText(style: JSONWriter.Style) throws {
        let text = JSONWriter.text(Self.sample, style: style)
        let document = try JSONReader.read(Array(text.utf8), limits: .init(bytes: 1 << 20, depth: 64, values: 1 << 20))
        #expect(JSONWriter.text(document.root, style: style) == text)
    }

    @Test func keyPathsQuoteWhatIsNotAnIdentifier() {
        let path: JSONKeyPath = [.key("applinks"), .key("details"), .index(0), .key("components"), .index(2), .key("/")]
        #expect(path.description == #"applinks.details[0].components[2]["/"]"#)
        #expect(JSONKeyPath([.index(1), .key("a\"b"), .key("_x1"), .key("1x"), .key("")]).description == #"[1]["a\"b"]._x1["1x"][""]"#)
        #expect(JSONKeyPath.appending("é", to: "a") == #"a["é"]"#)
    }

    @Test func aQuotedValueInAMessageIsShortened() {
        #expect(JSONWriter.quotedForMessage("ab\"c") == #""ab\"c""#)
        #expect(JSONWriter.quotedForMessage(String(repeating: "x", count: 61)) == "\"" + String(repeating: "x", count: 60) + "…\"")
    }
}
