import Foundation
import Testing
import UniversalLinkKitTesting
#if canImport(Glibc)

/// Matching a long URL against an association file of many rules costs memory for the file and the URL, not for
/// their product: `aasa match --json` and `doctor campaign` run with hundreds of rules against 60 KB URLs, and their
/// peak resident set (``PeakMemory``) is compared with the same command's against a one-rule file.
///
/// Explaining a URL no rule matches keeps only the three nearest misses as it goes, never one per rule with the whole
/// path in each.
struct AssociationMemoryTests {
    static let app = "ABCDE12345.com.example.app"

    /// `count` rules: `/*x*N*` (none matches ``url`` and each reads its whole path), or `/yN` (each fails at its
    /// first byte, so many fit in the matching budget, and each is a near miss that names the whole path).
    static func file(rules count: Int, stars: Bool = true) -> String {
        let rules = (0..<count).map { stars ? #"{"/": "/*x*\#($0 + 1_000)*"}"# : #"{"/": "/y\#($0)"}"# }
        return #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [\#(rules.joined(separator: ","))]}]}}"#
    }

    /// A URL of about 60 KB holding `x` and every pair of digits, but none of the rules' numbers.
    static let url: String = {
        let pairs = (0..<100).map { ($0 < 10 ? "0" : "") + "\($0)/" }.joined()
        return "https://news.example.com/x/" + String(repeating: pairs, count: 200)
    }()

    static func write(_ text: String, _ suffix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(UUID().uuidString).\(suffix)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The largest peak of up to three sampled runs (a short-lived child sampled early reads too low a peak).
    static func peak(_ arguments: [String]) async throws -> PeakMemory.Run {
        var runs: [PeakMemory.Run] = []
        var attempts = 0
        while runs.count < 3, attempts < 10 {
            let run = try await PeakMemory.run(arguments)
            if run.samples > 0 { runs.append(run) }
            attempts += 1
        }
        return try #require(runs.max { $0.peakKiB < $1.peakKiB }, "no run was sampled")
    }

    /// The growth of the peak, in KiB, from a one-rule file to `rules` rules, for the command `arguments(file)`.
    static func growth(rules: Int, stars: Bool = true, _ arguments: (String) -> [String]) async throws -> Int {
        let one = try write(file(rules: 1, stars: stars), "json")
        let many = try write(file(rules: rules, stars: stars), "json")
        defer { for path in [one, many] { try? FileManager.default.removeItem(atPath: path) } }
        let baseline = try await peak(arguments(one))
        let large = try await PeakMemory.run(arguments(many))
        #expect(large.samples > 0)
        #expect((large.status >> 8) & 0xFF == 0 || (large.status >> 8) & 0xFF == 1)
        return large.peakKiB - baseline.peakKiB
    }

    @Test func explainingALongURLAgainstThousandsOfRulesKeepsOnlyTheNearestMisses() async throws {
        let growth = try await Self.growth(rules: 2_000, stars: false) {
            ["aasa", "match", "--json", "--file", $0, "--app", Self.app, Self.url]
        }
        // Sanitizers keep freed memory resident and add shadow memory per allocation: the bound says nothing there.
        if !Sanitizer.isActive {
            #expect(growth < 16 * 1024, "the peak grew by \(growth) KiB")
        }
    }

    @Test func aURLPastTheMatchingBudgetIsAnsweredNotMatchedWithItsReason() async throws {
        let file = try Self.write(Self.file(rules: 4_000), "json")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try await HostProcess.run(["aasa", "match", "--json", "--file", file, "--app", Self.app, Self.url])
        #expect(result.status == 0)
        let line = try #require(try result.jsonLines().first)
        #expect(line["result"] as? String == "none")
        #expect((line["explanation"] as? String)?.hasPrefix(
            "not matched: this URL against the 4000 rules for \"\(Self.app)\" needs more than 67108864 matching steps") == true)
        let growth = try await Self.growth(rules: 4_000) { ["aasa", "match", "--json", "--file", $0, "--app", Self.app, Self.url] }
        if !Sanitizer.isActive {
            #expect(growth < 16 * 1024, "the peak grew by \(growth) KiB")
        }
    }

    @Test func aCampaignOfLongLinksAgainstAThousandRulesKeepsOnlyTheNearestMisses() async throws {
        let links = (0..<4).map { #"<a href="\#(Self.url)?n=\#($0)">link \#($0)</a>"# }.joined(separator: "\n")
        let email = try Self.write(links, "html")
        defer { try? FileManager.default.removeItem(atPath: email) }
        let growth = try await Self.growth(rules: 1_000, stars: false) {
            ["doctor", "campaign", "--json", "--email", email, "--app", Self.app, "--aasa", $0, "--branded-domain", "news.example.com"]
        }
        if !Sanitizer.isActive {
            #expect(growth < 16 * 1024, "the peak grew by \(growth) KiB")
        }
    }
}
#endif
