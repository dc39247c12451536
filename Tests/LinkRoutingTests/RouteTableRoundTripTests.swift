import Foundation
import Testing
@testable import LinkRouting

/// Property: any table the API can build dumps to JSON that loads back to an equal table, pretty or compact.
struct RouteTableRoundTripTests {
    /// SplitMix64, seeded so a failure names a reproducible table.
    typealias Generator = SegmentIndexTests.Generator

    /// Pieces that stress the JSON writer: quotes, backslashes, control characters, slashes, non-ASCII, escapes.
    static let pieces = ["/", "a", ":id", "*", "(", ")", "\"", "\\", "\u{0}", "\u{1F}", "\n", "\t", "é", "🙂", "%2F",
                         "%zz", " ", "#", "?", "&", "=", "+", "\u{2028}", "/"]
    static let priorities = [0, 0, 0, 1, -1, 7, 1_000_000, Int.max, Int.min, Int(Int32.max) + 1]

    static func text(_ rng: inout Generator, maxCount: Int) -> String {
        (0..<Int.random(in: 1...maxCount, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    static func randomTable(_ rng: inout Generator) -> RouteTable {
        var schemes: Set<String> = []
        var namespaces: [RouteTable.Namespace] = []
        for index in 0..<Int.random(in: 0...4, using: &rng) {
            var scheme: String?
            if index > 0 || Bool.random(using: &rng) {
                let candidate = text(&rng, maxCount: 3)
                guard schemes.insert(candidate).inserted else { continue }
                scheme = candidate
            }
            let routes = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                RouteTable.Route(
                    pattern: text(&rng, maxCount: 6),
                    priority: priorities.randomElement(using: &rng)!,
                    handles: Bool.random(using: &rng),
                    group: Bool.random(using: &rng) ? text(&rng, maxCount: 2) : nil,
                    name: Bool.random(using: &rng) ? text(&rng, maxCount: 2) : nil)
            }
            namespaces.append(.init(scheme: scheme, fallbackToGlobal: Bool.random(using: &rng), routes: routes))
        }
        return RouteTable(
            decodePlusSymbols: Bool.random(using: &rng), alwaysTreatsHostAsPathComponent: Bool.random(using: &rng),
            namespaces: namespaces)
    }

    /// A repeated key is read as its last value and warned about; the dump writes each key once, so the table it
    /// loads to routes alike and has nothing left to warn about. (`.ci/fuzz route-table` found this input.)
    @Test func aTableReadWithARepeatedKeyDumpsToTheSameRoutesWithoutTheWarning() throws {
        let json = #"{"namespaces":[{"scheme":"a","routes":[{"pattern":"/x:(m)yx,,,,","priority":-0,"handles":-0,"handles":false}]}]}"#
        let table = try RouteTable(json: Data(json.utf8))
        #expect(table.diagnostics.map(\.code) == ["duplicateKey"])
        let reloaded = try RouteTable(json: table.jsonData())
        #expect(reloaded.diagnostics.isEmpty)
        #expect(reloaded.namespaces == table.namespaces)
        #expect(reloaded.decodePlusSymbols == table.decodePlusSymbols)
        #expect(reloaded.alwaysTreatsHostAsPathComponent == table.alwaysTreatsHostAsPathComponent)
    }

    @Test func randomTablesSurviveDumpAndLoad() async throws {
        var rng = Generator(state: 6_2026)
        for n in 0..<300 {
            await Task.yield()  // leaves the cooperative pool to deadline tests under the sanitizers
            let table = Self.randomTable(&rng)
            for pretty in [true, false] {
                let dump = table.jsonData(prettyPrinted: pretty)
                let reloaded = try #require(try? RouteTable(json: dump), "table \(n): \(String(decoding: dump, as: UTF8.self))")
                #expect(reloaded == table, "table \(n): \(String(decoding: dump, as: UTF8.self))")
                #expect(reloaded.jsonData(prettyPrinted: pretty) == dump, "table \(n): the dump is stable")
            }
        }
    }
}
