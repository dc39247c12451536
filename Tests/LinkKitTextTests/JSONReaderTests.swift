import Testing
@testable import _LinkKitText

/// The JSON reader: RFC 8259 exactly, members in order, repeated keys reported, errors that say where, limits that
/// hold, and no recursion on depth.
struct JSONReaderTests {
    static let roomy = JSONReader.Limits(bytes: 1 << 24, depth: 1_000, values: 1 << 22)

    static func read(_ text: String, limits: JSONReader.Limits = roomy, trailingCommas: Bool = false) throws(JSONReadError) -> JSONDocument {
        try JSONReader.read(Array(text.utf8), limits: limits, allowsTrailingCommas: trailingCommas)
    }

    static func error(_ bytes: [UInt8], limits: JSONReader.Limits = roomy) -> JSONReadError? {
        do {
            _ = try JSONReader.read(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    static func error(_ text: String, limits: JSONReader.Limits = roomy) -> JSONReadError? {
        error(Array(text.utf8), limits: limits)
    }

    @Test func membersKeepDocumentOrderAndNumbersTheirText() throws {
        let root = try Self.read(#" {"b": 1.5e3, "a": [true, false, null, -0], "c": {}} "#).root
        #expect(root.members.map(\.key) == ["b", "a", "c"])
        #expect(root.member("b")?.numberText == "1.5e3")
        let elements = Array(try #require(root.member("a")).elements)
        #expect(elements.map(\.kind) == [.boolean, .boolean, .null, .number])
        #expect(elements.first?.bool == true)
        #expect(elements.last?.numberText == "-0")
        #expect(root.member("c")?.count == 0)
        #expect(root.member("z") == nil)
    }

    @Test func aRepeatedKeyKeepsItsLastValueAtItsFirstPlaceAndIsReported() throws {
        let document = try Self.read(#"{"a": 1, "b": {"x": [{"k": 1, "k": 2, "k": 3}]}, "a": "last"}"#)
        let root = document.root
        #expect(root.members.map(\.key) == ["a", "b"])
        #expect(root.count == 2)
        #expect(root.member("a")?.string == "last")
        let inner = try #require(root.member("b")?.member("x")?.elements.first(where: { _ in true }))
        #expect(inner.members.map(\.key) == ["k"])
        #expect(inner.member("k")?.integer == 3)
        #expect(document.duplicateKeys.map(\.description) == ["b.x[0].k", "b.x[0].k", "a"])
    }

    @Test func repeatedKeysAreFoundInLargeObjectsToo() throws {
        let members = (0..<100).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        let document = try Self.read("{\(members), \"k7\": true, \"k99\": null}")
        #expect(document.root.count == 100)
        #expect(document.root.member("k7")?.bool == true)
        #expect(document.root.member("k99")?.isNull == true)
        #expect(document.duplicateKeys.map(\.description) == ["k7", "k99"])
    }

    @Test func aResponseHandlerAnswerReadsAsAnObjectOfStringOrNullMembers() throws {
        let limits = JSONReader.Limits(bytes: 65_536, depth: 2, values: 64)
        let answer = try Self.read(#"{"webLinkUrl": "https://www.example.com/p/1", "mobileDeepLinkUrl": null}"#, limits: limits).root
        #expect(answer.kind == .object)
        #expect(answer.member("webLinkUrl")?.string == "https://www.example.com/p/1")
        #expect(answer.member("mobileDeepLinkUrl")?.isNull == true)
        #expect(answer.member("mobileDeepLinkUrl")?.string == nil)
        #expect(answer.member("missing") == nil)
        let nested = Self.error(#"{"webLinkUrl": [[1]]}"#, limits: limits)
        #expect(nested?.description == "line 1, column 17, at webLinkUrl[0]: nesting deeper than 2 arrays or objects")
    }

    @Test func keyPathsNameEveryStep() throws {
        let root = try Self.read(#"{"applinks": {"details": [{"components": [{}, {}, {"/": "/a", "a b": 1}]}]}}"#).root
        let component = try #require(root.member("applinks")?.member("details")?.elements.first { _ in true }?
            .member("components")?.elements.dropFirst(2).first { _ in true })
        #expect(component.member("/")?.keyPath.description == #"applinks.details[0].components[2]["/"]"#)
        #expect(component.member("a b")?.keyPath.description == #"applinks.details[0].components[2]["a b"]"#)
        #expect(root.keyPath.description == "")
    }

    @Test func stringsDecodeEveryEscape() throws {
        let text = #"["\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00", "caf\#u{E9} 😀"]"#
        let strings = try Self.read(text).root.elements.map(\.string)
        #expect(strings == ["\"\\/\u{8}\u{C}\n\r\tAé€😀", "café 😀"])
    }

    static let refused: [(text: [UInt8], description: String)] = [
        (Array("".utf8), "line 1, column 1: unexpected end of input, expected a value"),
        (Array("[1,]".utf8), "line 1, column 4, at [1]: unexpected character ']', expected a value"),
        (Array(#"{"a": 1,}"#.utf8), "line 1, column 9: unexpected character '}' in an object, expected a key string"),
        (Array("01".utf8), "line 1, column 1: invalid number, a leading zero"),
        (Array("[1.]".utf8), "line 1, column 4, at [0]: invalid number, expected a digit after '.'"),
        (Array("-".utf8), "line 1, column 2: invalid number, expected a digit"),
        (Array("1e".utf8), "line 1, column 3: invalid number, expected an exponent digit"),
        (Array("[tru]".utf8), "line 1, column 2, at [0]: invalid literal, expected true"),
        (Array("'a'".utf8), "line 1, column 1: unexpected character ''', expected a value"),
        (Array("[1] /* c */".utf8), "line 1, column 5: unexpected character '/' after the end of the JSON document"),
        (Array("1 2".utf8), "line 1, column 3: unexpected character '2' after the end of the JSON document"),
        (Array(#"{"a" 1}"#.utf8), "line 1, column 6, at a: unexpected character '1' after an object key, expected ':'"),
        (Array(#"{"a": [1 2]}"#.utf8), "line 1, column 10, at a: unexpected character '2' in an array, expected ',' or ']'"),
        (Array(#"{"a": {"b": 1 "c": 2}}"#.utf8), "line 1, column 15, at a: unexpected character '\"' in an object, expected ',' or '}'"),
        (Array(#"{"a": ["#.utf8), "line 1, column 8, at a[0]: unexpected end of input, expected a value"),
        (Array(#"{"a": [1"#.utf8), "line 1, column 9, at a: unterminated array, expected ',' or ']'"),
        (Array(#"{"a": "x"#.utf8), "line 1, column 7, at a: unterminated string"),
        (Array(#"["\x"]"#.utf8), "line 1, column 3, at [0]: invalid escape sequence"),
        (Array(#"["\u12"]"#.utf8), #"line 1, column 7, at [0]: invalid hexadecimal digit in a \u escape"#),
        (Array(#"["\ud800"]"#.utf8), #"line 1, column 3, at [0]: a lone UTF-16 high surrogate in a \u escape"#),
        (Array(#"["\ud800\u0041"]"#.utf8), #"line 1, column 3, at [0]: a lone UTF-16 high surrogate in a \u escape"#),
        (Array(#"["\udc00"]"#.utf8), #"line 1, column 3, at [0]: a lone UTF-16 low surrogate in a \u escape"#),
        (Array(#"{"k": ""#.utf8) + [0x09] + Array(#""}"#.utf8), "line 1, column 8, at k: unescaped control character (byte 0x09) in a string"),
        (Array(#"{"k": ""#.utf8) + [0xFF] + Array(#""}"#.utf8), "line 1, column 8, at k: invalid UTF-8 (byte 0xFF)"),
        (Array(#"{"k": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), "line 1, column 9, at k: invalid UTF-8 (byte 0x28)"),
        (Array(#"{"k": ""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8), "line 1, column 9, at k: invalid UTF-8 (byte 0xA0)"),
        (Array(#"{"k": ""#.utf8) + [0xC0, 0x80] + Array(#""}"#.utf8), "line 1, column 8, at k: invalid UTF-8 (byte 0xC0)"),
        (Array(#"{"k": ""#.utf8) + [0xF0, 0x9F], "line 1, column 8, at k: truncated UTF-8 sequence"),
        ([0xEF, 0xBB, 0xBF] + Array("{}".utf8), "line 1, column 1: unexpected byte 0xEF, expected a value"),
        (Array("{\n  \"a\": [\n    }".utf8), "line 3, column 5, at a[0]: unexpected character '}', expected a value"),
    ]

    @Test(arguments: Self.refused)
    func whatRFC8259RefusesIsAnErrorThatSaysWhere(text: [UInt8], description: String) throws {
        let error = try #require(Self.error(text))
        #expect(error.reason == .syntax)
        #expect(error.description == description)
    }

    @Test func oneTrailingCommaIsAcceptedOnlyWhenTheCallerAllowsIt() throws {
        let document = try Self.read(#"{"a": [1, 2,], "b": {"c": 1,},}"#, trailingCommas: true)
        #expect(document.root.member("a")?.count == 2)
        #expect(document.root.member("b")?.members.map(\.key) == ["c"])
        #expect(throws: JSONReadError.self) { try Self.read("[1,,]", trailingCommas: true) }
        #expect(throws: JSONReadError.self) { try Self.read("[,]", trailingCommas: true) }
        #expect(throws: JSONReadError.self) { try Self.read("[1,]") }
    }

    @Test func eachLimitIsAnErrorThatSaysWhichAndWhere() throws {
        let bytes = Self.error("[1, 2]", limits: .init(bytes: 5, depth: 10, values: 10))
        #expect(bytes?.reason == .limit)
        #expect(bytes?.description == "line 1, column 1: the text is 6 bytes, over the limit of 5 bytes")
        let depth = Self.error(#"{"a": [[[1]]]}"#, limits: .init(bytes: 100, depth: 3, values: 10))
        #expect(depth?.reason == .limit)
        #expect(depth?.description == "line 1, column 9, at a[0][0]: nesting deeper than 3 arrays or objects")
        let values = Self.error(#"{"a": [1, 2, 3]}"#, limits: .init(bytes: 100, depth: 3, values: 4))
        #expect(values?.reason == .limit)
        #expect(values?.description == "line 1, column 14, at a[2]: more than 4 values")
        // At the limits exactly, the document reads.
        #expect(try Self.read(#"{"a": [1, 2, 3]}"#, limits: .init(bytes: 16, depth: 2, values: 5)).valueCount == 5)
    }

    @Test func aHundredThousandLevelsReadWalkAndFreeWithoutRecursion() throws {
        let depth = 100_000
        let text = String(repeating: #"{"a": ["#, count: depth) + "1" + String(repeating: "]}", count: depth)
        let document = try Self.read(text, limits: .init(bytes: 1 << 24, depth: 2 * depth, values: 1 << 22))
        var node = document.root
        var levels = 0
        while let inner = node.member("a")?.elements.first(where: { _ in true }) {
            node = inner
            levels += 1
        }
        #expect(levels == depth)
        #expect(node.integer == 1)
        #expect(node.keyPath.components.count == 2 * depth)
        #expect(JSONWriter.text(document.root, style: .compact) == text.filter { $0 != " " })
        let deep = Self.error(String(repeating: "[", count: depth), limits: .init(bytes: 1 << 24, depth: depth, values: 1 << 22))
        #expect(deep?.description.hasSuffix("unexpected end of input, expected a value") == true)
    }

    @Test func repeatedKeysDeepInsideAnArrayAreReportedWithTheirElementsIndex() throws {
        let elements = (0..<20_000).map { _ in #"{"a": 1, "a": 2}"# }.joined(separator: ",")
        let document = try Self.read(String(repeating: "[", count: 100) + elements + String(repeating: "]", count: 100))
        let duplicates = document.duplicateKeys
        #expect(duplicates.count == 20_000)
        #expect(duplicates.last?.description == String(repeating: "[0]", count: 99) + "[19999].a")
    }

    @Test func hostileInputCostsTimeInProportionToItsSize() throws {
        // Many members in one object: repeated keys are found with a dictionary, not a quadratic scan.
        let members = (0..<50_000).map { #""\#($0)": 0"# }.joined(separator: ",")
        let document = try Self.read("{\(members),\"0\":1}")
        #expect(document.root.count == 50_000)
        #expect(document.duplicateKeys.map(\.description) == [#"["0"]"#])
    }
}
