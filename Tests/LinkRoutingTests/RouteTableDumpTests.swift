import Foundation
import Testing
@testable import LinkRouting

/// `RouteTable.jsonData(prettyPrinted:)` writes what `JSONSerialization` writes for the same table: the same bytes,
/// compact and pretty, for tables full of characters that JSON escapes or could.
struct RouteTableDumpTests {
    typealias Generator = SegmentIndexTests.Generator

    /// The dump as Foundation writes it: its object graph and writer.
    static func foundationJSON(_ table: RouteTable, prettyPrinted: Bool) throws -> Data {
        let namespaces: [[String: Any]] = table.namespaces.map { namespace in
            [
                "scheme": namespace.scheme.map { $0 as Any } ?? NSNull(),
                "fallbackToGlobal": namespace.fallbackToGlobal,
                "routes": namespace.routes.map { route -> [String: Any] in
                    var object: [String: Any] = ["pattern": route.pattern, "priority": route.priority, "handles": route.handles]
                    if let group = route.group { object["group"] = group }
                    if let name = route.name { object["name"] = name }
                    return object
                },
            ]
        }
        let document: [String: Any] = [
            "decodePlusSymbols": table.decodePlusSymbols,
            "alwaysTreatsHostAsPathComponent": table.alwaysTreatsHostAsPathComponent,
            "namespaces": namespaces,
        ]
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
        if prettyPrinted { options.insert(.prettyPrinted) }
        return try JSONSerialization.data(withJSONObject: document, options: options)
    }

    /// Every control character, the characters JSON or JavaScript treat specially, and non-ASCII of every length.
    static let oddPieces: [String] = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + [
        "\"", "\\", "/", "//", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}", "é", "e\u{301}", "\u{2028}", "\u{2029}",
        "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "🙂", "👩‍👩‍👧", "\r\n", ":id", "*", "(", ")", "%2F", "%zz", "#", "?", "&",
        "=", "+", " ", "a", "products", "\\u0041", "\\/", "null", "true",
    ]

    static func text(_ rng: inout Generator, maxCount: Int) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...maxCount, using: &rng) {
            if Int.random(in: 0..<8, using: &rng) == 0 {
                // Any scalar at all, surrogates excepted.
                var value = UInt32.random(in: 0...0x10FFFF, using: &rng)
                if (0xD800...0xDFFF).contains(value) { value = 0xE000 }
                text.unicodeScalars.append(Unicode.Scalar(value)!)
            } else {
                text += oddPieces.randomElement(using: &rng)!
            }
        }
        return text
    }

    static let priorities = [0, 0, 1, -1, 7, -42, 1_000_000, Int.max, Int.min, Int(Int32.max) + 1, Int(Int32.min) - 1]

    static func randomTable(_ rng: inout Generator) -> RouteTable {
        let namespaces = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
            RouteTable.Namespace(
                scheme: Bool.random(using: &rng) ? nil : text(&rng, maxCount: 3),
                fallbackToGlobal: Bool.random(using: &rng),
                routes: (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                    RouteTable.Route(
                        pattern: text(&rng, maxCount: 8),
                        priority: priorities.randomElement(using: &rng)!,
                        handles: Bool.random(using: &rng),
                        group: Bool.random(using: &rng) ? text(&rng, maxCount: 3) : nil,
                        name: Bool.random(using: &rng) ? text(&rng, maxCount: 3) : nil)
                })
        }
        return RouteTable(
            decodePlusSymbols: Bool.random(using: &rng), alwaysTreatsHostAsPathComponent: Bool.random(using: &rng),
            namespaces: namespaces)
    }

    @Test(arguments: [true, false])
    func randomTablesAreWrittenByteForByteAsJSONSerializationWroteThem(prettyPrinted: Bool) async throws {
        var rng = Generator(state: prettyPrinted ? 19_2026 : 19_2027)
        for n in 0..<1_000 {
            if n % 100 == 0 { await Task.yield() }
            let table = Self.randomTable(&rng)
            let written = table.jsonData(prettyPrinted: prettyPrinted)
            let expected = try Self.foundationJSON(table, prettyPrinted: prettyPrinted)
            #expect(written == expected, "table \(n):\n\(String(decoding: written, as: UTF8.self))\nexpected:\n\(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test(arguments: [true, false])
    func emptyTablesNamespacesAndEveryControlCharacterMatch(prettyPrinted: Bool) throws {
        let tables = [
            RouteTable(),
            RouteTable(namespaces: [.init(scheme: nil)]),
            RouteTable(namespaces: [.init(scheme: "myapp", routes: [.init(pattern: "")]), .init(scheme: nil)]),
            RouteTable(namespaces: [.init(scheme: nil, routes: [.init(pattern: Self.oddPieces.joined(), group: "", name: "")])]),
        ]
        for table in tables {
            #expect(table.jsonData(prettyPrinted: prettyPrinted) == (try Self.foundationJSON(table, prettyPrinted: prettyPrinted)))
        }
    }

    @Test func thePrettyFormIsFoundationsOnLinux() {
        let table = RouteTable(namespaces: [.init(scheme: nil, routes: [.init(pattern: "/a/\u{1}\"", name: "n")]), .init(scheme: "x")])
        #expect(String(decoding: table.jsonData(), as: UTF8.self) == #"""
            {
              "alwaysTreatsHostAsPathComponent" : false,
              "decodePlusSymbols" : true,
              "namespaces" : [
                {
                  "fallbackToGlobal" : false,
                  "routes" : [
                    {
                      "handles" : true,
                      "name" : "n",
                      "pattern" : "/a/\u0001\"",
                      "priority" : 0
                    }
                  ],
                  "scheme" : null
                },
                {
                  "fallbackToGlobal" : false,
                  "routes" : [

                  ],
                  "scheme" : "x"
                }
              ]
            }
            """#)
    }
}
