import Testing
@testable import AssociatedDomains

/// Property: a random valid rule set, written in every format, parses back to the model it was written from,
/// checks clean, and matches random URLs the same way in every format and platform that can express it.
struct GenerationRoundTripTests {
    static let pathPieces = ["/", "/", "a", "b", "*", "?", "$(digit)", "$(alnum)", "é", "\"", "\\", " ", "%20", "\t",
                             "#", "&", "\u{1}", "🙂", "NOT"]
    static let urlPieces = ["/", "a", "b", "1", "é", "%22", "%5C", "%20", "x", "NOT"]
    static let teams = ["ABCDE12345", "0123456789", "ZZZZZZZZZZ"]

    static func text(_ pieces: [String], _ rng: inout SeededGenerator, maxCount: Int) -> String {
        (0..<Int.random(in: 1...maxCount, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    // Async, yielding between sets: under ThreadSanitizer this runs ten times slower and would otherwise hold one of
    // the two cooperative threads for a minute, starving the deadline tests running beside it.
    @Test func randomRuleSetsReadBackAsWrittenAndMatchAlikeInEveryFormat() async throws {
        var rng = SeededGenerator(state: 6_0606)
        var written = 0
        for n in 0..<200 {
            await Task.yield()
            let appIDs = (0..<Int.random(in: 1...2, using: &rng)).map { i in
                "\(Self.teams.randomElement(using: &rng)!).com.example.app\(i)"
            }
            let rules = (0..<Int.random(in: 1...5, using: &rng)).map { _ in
                let path = (Bool.random(using: &rng) ? "/" : "") + Self.text(Self.pathPieces, &rng, maxCount: 5)
                let comment: String? = Int.random(in: 0..<4, using: &rng) == 0 ? Self.text(Self.pathPieces, &rng, maxCount: 3) : nil
                return AppLinkRuleSet.Rule(path: path, exclude: Int.random(in: 0..<3, using: &rng) == 0, comment: comment)
            }
            let ruleSet = AppLinkRuleSet(appIDs: appIDs, rules: rules)
            guard (try? ruleSet.validate()) != nil else { continue }
            written += 1
            let urls = (0..<6).map { _ in
                "https://news.example.com" + Self.text(Self.urlPieces, &rng, maxCount: 5)
                    + (Bool.random(using: &rng) ? "?q=1" : "") + (Bool.random(using: &rng) ? "#f" : "")
            }
            var answers: [String] = []
            for format in AppLinkRuleSet.Format.allCases {
                let text = try ruleSet.appSiteAssociation(format: format)
                let errors = AppSiteAssociation.check(Array(text.utf8)).filter { $0.severity == .error }
                #expect(errors.isEmpty, "set \(n) \(format): \(errors)")
                let file = try AppSiteAssociation(parsing: text)
                // Warnings (a path without a leading `/`...) are the reader's, not part of what was written.
                var read = file
                read.diagnostics = []
                #expect(read == (try ruleSet.association(format: format)), "set \(n) \(format): \(text)")
                var platforms: [AppLinkMatcher.Configuration.Platform] = [.iOS13AndLater]
                if format != .components { platforms.append(.iOS9To12) }
                for platform in platforms {
                    let matcher = AppLinkMatcher(file, configuration: .init(platform: platform))
                    answers.append(urls.map { url in
                        appIDs.map { matcher.match(url, appID: $0, domain: "news.example.com").outcome.rawValue }
                            .joined(separator: ",")
                    }.joined(separator: ";"))
                }
            }
            #expect(Set(answers).count == 1, "set \(n): \(rules) on \(urls)")
        }
        // Most generated sets are valid, so the property is exercised.
        #expect(written > 120)
    }
}
