import Foundation
import Testing
@testable import LinkRouting

/// The JSON that `RouteTable(json:)` reads: what `JSONSerialization` accepted it still accepts (trailing commas,
/// UTF-16, a byte-order mark, 512 levels), what it refused it still refuses, and where the reader chooses
/// differently it says so.
struct RouteTableJSONTests {
    static func load(_ json: String) throws(RouteError) -> RouteTable { try RouteTable(json: Data(json.utf8)) }

    static func error(_ bytes: [UInt8]) -> RouteError? {
        do {
            _ = try RouteTable(json: Data(bytes))
            return nil
        } catch {
            return error
        }
    }

    static func error(_ json: String) -> RouteError? { error(Array(json.utf8)) }

    static let oneRoute = RouteTable(namespaces: [.init(scheme: nil, routes: [.init(pattern: "/a")])])

    @Test(arguments: [
        #"{"namespaces": [{"routes": [{"pattern": "/a",},],},],}"#,
        #" {"namespaces" : [ {"routes": [ {"pattern" : "/a" } , ] } ] } "#,
        "\u{FEFF}{\"namespaces\": [{\"routes\": [{\"pattern\": \"/a\"}]}]}",
        #"{"namespaces": [{"routes": [{"pattern": "/b", "pattern": "/a"}]}]}"#,
        #"{"namespaces": [{"routes": [{"p\u0061ttern": "\/a"}]}]}"#,
    ])
    func whatJSONSerializationAcceptedStillLoads(json: String) throws {
        var table = try Self.load(json)
        // A repeated key loads too, with a warning (RouteTableTests).
        table.diagnostics = []
        #expect(table == Self.oneRoute)
    }

    @Test func utf16AndUTF32TablesLoadAsJSONSerializationReadThem() throws {
        let json = #"{"namespaces": [{"scheme": "é", "routes": [{"pattern": "/😀"}]}]}"#
        let expected = RouteTable(namespaces: [.init(scheme: "é", routes: [.init(pattern: "/😀")])])
        let le = json.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let be = json.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let utf32 = json.unicodeScalars.flatMap { scalar in (0..<4).map { UInt8(truncatingIfNeeded: scalar.value >> (8 * $0)) } }
        for bytes in [le, be, [0xFF, 0xFE] + le, [0xFE, 0xFF] + be, utf32, [0xFF, 0xFE, 0, 0] + utf32] {
            #expect(try RouteTable(json: Data(bytes)) == expected)
        }
        let lone = Self.error([0x7B, 0x00, 0x22, 0x00, 0x00, 0xD8, 0x22, 0x00, 0x7D, 0x00])
        #expect(lone?.code == .invalidJSON)
        #expect(lone?.message.contains("does not decode as UTF-16") == true, "a lone surrogate in UTF-16")
    }

    /// A one-route table whose pattern's bytes (between the quotes) are `pattern`.
    static func table(pattern: [UInt8]) -> [UInt8] {
        let head: [UInt8] = Array(#"{"namespaces": [{"routes": [{"pattern": "/a"#.utf8)
        let tail: [UInt8] = Array(#""}]}]}"#.utf8)
        return head + pattern + tail
    }

    static let refused: [(bytes: [UInt8], reason: String)] = [
        (table(pattern: Array(#"\ud800"#.utf8)), "a lone UTF-16 high surrogate"),
        (table(pattern: Array(#"\udc00\ud800"#.utf8)), "a lone UTF-16 low surrogate"),
        (table(pattern: [0xFF]), "invalid UTF-8 (byte 0xFF)"),
        (table(pattern: [0xED, 0xA0, 0x80]), "invalid UTF-8 (byte 0xA0)"),
        (table(pattern: [0xC0, 0x80]), "invalid UTF-8 (byte 0xC0)"),
        (table(pattern: [0x09]), "unescaped control character"),
        (table(pattern: Array(#"\x"#.utf8)), "invalid escape sequence"),
        (Array(#"{"namespaces": [,]}"#.utf8), "unexpected character ','"),
        (Array(#"{"namespaces": [],,}"#.utf8), "unexpected character ','"),
        (Array(#"{"namespaces": [{"routes": [{"pattern": "/a", "priority": 01}]}]}"#.utf8), "a leading zero"),
        (Array(#"{"namespaces": [] "x": 1}"#.utf8), "expected ',' or '}'"),
        (Array(#"{"namespaces": []} []"#.utf8), "after the end of the JSON document"),
        (Array(#"{"namespaces": [/* no */]}"#.utf8), "unexpected character '/'"),
        ([], "unexpected end of input"),
    ]

    @Test(arguments: Self.refused)
    func whatJSONSerializationRefusedIsInvalidJSONSayingWhy(bytes: [UInt8], reason: String) throws {
        let error = try #require(Self.error(bytes))
        #expect(error.code == .invalidJSON)
        #expect(error.message.hasPrefix("the table is not valid JSON (line 1, column "), "\(error)")
        #expect(error.message.contains(reason), "\(error)")
    }

    @Test func anErrorOfSyntaxNamesItsKeyPathLineAndColumn() {
        let json = "{\"namespaces\": [\n  {\"routes\": [\n    {\"pattern\": \"/é\" \"priority\": 1}]}]}"
        #expect(Self.error(json)?.description
            == "namespaces[0].routes[0]: the table is not valid JSON (line 3, column 22: unexpected character '\"' in an object, expected ',' or '}')")
    }

    /// 512 levels load, as JSONSerialization reads them (here as an unknown key's value); 513 are invalid JSON.
    @Test func nestingIsCappedAt512LevelsAsJSONSerializationCappedIt() {
        func table(depth: Int) -> String {
            #"{"namespaces": [], "x": "# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
        }
        #expect(Self.error(table(depth: 512))?.code == .unknownKey)
        let error = Self.error(table(depth: 513))
        #expect(error?.code == .invalidJSON)
        #expect(error?.message.contains("nesting deeper than 512 arrays or objects") == true)
    }

    @Test(arguments: [
        ("1e2", 100), ("1.0", 1), ("100.00e-2", 1), ("0.05e2", 5), ("-0", 0), ("-0.0", 0), ("0e999999", 0),
        ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min), ("9.223372036854775807e18", Int.max),
    ])
    func aPriorityIsAnyNumberThatIsExactlyAnInteger(literal: String, value: Int) throws {
        let table = try Self.load(#"{"namespaces": [{"routes": [{"pattern": "/a", "priority": \#(literal)}]}]}"#)
        #expect(table.namespaces.first?.routes.first?.priority == value)
    }

    /// Through a Double, `JSONSerialization`'s numbers loaded some of these as the nearest whole number (and
    /// `-9223372036854775809` as `Int.min`); they are not integers `Int` holds.
    @Test(arguments: [
        ("1.5", "1.5"), ("1211685118427385.058", "1211685118427385.058"), ("1e-400", "1e-400"),
        ("-9223372036854775809", "-9223372036854775809"), ("9223372036854775808", "9223372036854775808"),
        ("1e400", "1e400"),
    ])
    func aNumberThatIsNotAnIntegerIntHoldsIsATypeMismatch(literal: String, shown: String) throws {
        let json = #"{"namespaces": [{"routes": [{"pattern": "/a", "priority": \#(literal), "handles": true}]}]}"#
        let error = try #require(Self.error(json))
        #expect(error.description == "namespaces[0].routes[0].priority: expected an integer, found the number \(shown)")
    }

    @Test func aNumberWhereABooleanBelongsIsShownAsJSONSerializationShowedIt() {
        let json = #"{"namespaces": [{"routes": [{"pattern": "/a", "handles": 1e2}]}]}"#
        #expect(Self.error(json)?.description == "namespaces[0].routes[0].handles: expected a boolean, found the number 100.0")
    }

    /// `JSONSerialization` dropped a U+FEFF at the start of each unescaped run of a string (so a dumped pattern that
    /// began with one did not load back equal); the characters are kept as written.
    @Test func aByteOrderMarkInsideAStringIsKept() throws {
        let table = RouteTable(namespaces: [.init(scheme: nil, routes: [.init(pattern: "\u{FEFF}/a")])])
        #expect(try RouteTable(json: table.jsonData()) == table)
    }
}
