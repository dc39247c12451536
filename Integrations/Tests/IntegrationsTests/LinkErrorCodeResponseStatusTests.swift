import Foundation
import HTTPTypes
import Testing
import UniversalLinkKit
import UniversalLinkKitHummingbird

/// The one status mapping, `LinkError.Code.responseStatus`, and the two places that repeat it for readers: the
/// README's `status(for:)` and Integrations/README.md's table. Every code the library has is checked, so a new code
/// fails here until both say its status.
struct LinkErrorCodeResponseStatusTests {
    /// Every code of `LinkError`, found through its stable raw values.
    static let everyCode = (0..<256).compactMap(LinkError.Code.init(rawValue:))

    static func text(_ path: String) throws -> String {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        return try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
    }

    @Test(arguments: [
        (LinkError.Code.notPubWebLink, 400), (.hostNotAllowed, 403), (.missingDestination, 404), (.timeout, 504),
        (.shuttingDown, 503), (.cancelled, 503), (.claimStoreUnavailable, 503), (.network, 502), (.httpStatus, 502),
        (.invalidResponse, 502), (.responseTooLarge, 502), (.unsafeLink, 502), (.tls, 502),
    ])
    func eachCodeHasTheContractsStatus(code: LinkError.Code, status: Int) {
        #expect(code.responseStatus.code == status)
    }

    /// The cases of the README's `status(for:)` switch: each named code's status, and the `default`'s.
    @Test func theREADMEsStatusFunctionAgreesForEveryCode() throws {
        let readme = try Self.text("../../../README.md")
        let start = try #require(readme.range(of: "func status(for code: LinkError.Code) -> Int {"))
        let end = try #require(readme.range(of: "\n}\n", range: start.upperBound..<readme.endIndex))
        var statuses: [String: Int] = [:]
        var fallback: Int?
        for line in readme[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let text = line.split(separator: "//").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            if text.hasPrefix("default:") {
                fallback = Int(text.dropFirst("default:".count).trimmingCharacters(in: .whitespaces))
            } else if text.hasPrefix("case "), let colon = text.lastIndex(of: ":") {
                let status = Int(text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                for name in text.dropFirst(5)[..<colon].split(separator: ",") {
                    statuses[name.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "."))] = status
                }
            }
        }
        #expect(!statuses.isEmpty)
        for code in Self.everyCode {
            #expect(statuses[code.description] ?? fallback == Int(code.responseStatus.code), "\(code)")
        }
    }

    /// Integrations/README.md's table names every code once, in its status's row.
    @Test func theIntegrationsREADMEsTableNamesEveryCodeInItsStatusRow() throws {
        let readme = try Self.text("../../README.md")
        var rows: [String: [Int]] = [:]
        for line in readme.split(separator: "\n") where line.hasPrefix("| 4") || line.hasPrefix("| 5") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2, let status = Int(cells[0]) else { continue }
            // The codes are the backquoted names outside parentheses.
            var depth = 0
            var names: [String] = []
            var current: String?
            for character in cells[1] {
                switch character {
                case "(": depth += 1
                case ")": depth -= 1
                case "`" where depth == 0:
                    if let name = current { names.append(name); current = nil } else { current = "" }
                default: if current != nil { current?.append(character) }
                }
            }
            for name in names { rows[name, default: []].append(status) }
        }
        #expect(rows["invalidRequest"] == [400])
        for code in Self.everyCode {
            #expect(rows[code.description] == [Int(code.responseStatus.code)], "\(code): \(rows[code.description] ?? [])")
        }
    }
}
