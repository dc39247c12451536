import Testing
@testable import AssociatedDomains

/// What the Android side costs grows with its input, not with the input squared: hosts of one filter, attributes of
/// one element, dynamic rules, and the URLs compared with an AASA. Work is counted (names compared, hosts looked at,
/// matching steps), never timed: each count is taken at two sizes and must double, not quadruple, when the input
/// doubles.
struct AndroidScalingTests {
    static let web = AndroidLintTests.web

    /// One App Link filter of `count` hosts `hN.example.com` (plus `extra` inside the filter), and a second filter
    /// taking tapped links on the same hosts without `autoVerify`, so the lint looks each host up.
    static func manifest(hosts count: Int, extra: String = "") -> AndroidManifest {
        let hosts = (0..<count).map { #"<data android:host="h\#($0).example.com"/>"# }.joined()
        let xml = AndroidLintTests.manifest("""
            <intent-filter android:autoVerify="true">\(web)<data android:scheme="https"/>\(hosts)\(extra)</intent-filter>
            <intent-filter>\(web)<data android:scheme="https"/>\(hosts)</intent-filter>
            """)
        return (try? AndroidManifest(parsing: xml)) ?? AndroidManifest(intentFilters: [])
    }

    static func statements(rules: [String]) throws -> [AndroidAssetStatement] {
        let links = #"""
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": []},
              "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [\#(rules.joined(separator: ","))]}}}]
            """#
        return try AndroidAssetStatement.statements(in: Array(links.utf8))
    }

    static func lintSteps(_ matcher: AndroidLinkMatcher, aasa: AppSiteAssociation? = nil, budget: Int = AndroidLinkMatcher.comparisonBudget)
    -> (findings: [AssociationDiagnostic], steps: Int) {
        var steps = 0
        let findings = matcher.lint(aasa: aasa, appID: aasa == nil ? nil : app, urls: [], budget: budget, steps: &steps)
        return (findings, steps)
    }

    static func expectDoubles(_ small: Int, _ large: Int, _ what: String) {
        let ratio = Double(large) / Double(max(small, 1))
        #expect(ratio > 1.6 && ratio < 2.4, "\(what): \(small) then \(large)")
    }

    @Test func attributesOfOneElementAreComparedOnceEach() throws {
        func comparisons(_ count: Int) throws -> Int {
            let attributes = (0..<count).map { "a\($0)=\"x\"" }.joined(separator: " ")
            var comparisons = 0
            _ = try XMLReader.parse(Array("<manifest \(attributes)><application/></manifest>".utf8), comparisons: &comparisons)
            return comparisons
        }
        Self.expectDoubles(try comparisons(2_000), try comparisons(4_000), "attribute names compared")
        #expect(throws: AssociationError.self) { try XMLReader.parse(Array("<m a='1' b='2' a='3'/>".utf8)) }
        // Prefixed names are compared again once resolved, by lookup too.
        func prefixed(_ count: Int) throws -> Int {
            let declarations = (0..<count).map { "xmlns:p\($0)=\"u\($0 % 7)\"" }.joined(separator: " ")
            let attributes = (0..<count).map { "p\($0):a\($0)=\"x\"" }.joined(separator: " ")
            var comparisons = 0
            _ = try XMLReader.parse(Array("<manifest \(declarations) \(attributes)><application/></manifest>".utf8), comparisons: &comparisons)
            return comparisons
        }
        Self.expectDoubles(try prefixed(2_000), try prefixed(4_000), "prefixed attribute names compared")
    }

    /// Rules of long literals between stars, each one unit short of the path at every place: each rule reads the
    /// path about once, where a last-star walk costs the pattern times the path.
    @Test func dynamicRulesCostTheirLengthPlusThePathNotTheirProduct() throws {
        func steps(_ n: Int) throws -> Int {
            let rules = (0..<4).map { _ in #"{"/": "/p*\#(String(repeating: "a", count: n))b*"}"# }
            let matcher = AndroidLinkMatcher(manifest: Self.manifest(hosts: 1, extra: #"<data android:pathPrefix="/p"/>"#),
                                             statements: try Self.statements(rules: rules), packageName: "com.example.app")
            var steps = 0
            let answer = matcher.explain("https://h0.example.com/p" + String(repeating: "a", count: 2 * n), steps: &steps)
            #expect(!answer.opensApp && answer.reason.contains("no dynamic_app_link_components rule matches"), "\(answer.reason)")
            return steps
        }
        Self.expectDoubles(try steps(7_500), try steps(15_000), "dynamic rule steps")
    }

    /// A 100 KB rule of `*a` pairs against a path of 64 000 `a`s.
    @Test func aRuleAsLongAsTheFileAgainstTheLongestURLCostsTheirSum() throws {
        let pattern = "/" + String(repeating: "*a", count: 50_000) + "*b"
        let matcher = AndroidLinkMatcher(manifest: Self.manifest(hosts: 1), statements: try Self.statements(rules: [#"{"/": "\#(pattern)"}"#]),
                                         packageName: "com.example.app")
        let path = "/" + String(repeating: "a", count: 64_000)
        var steps = 0
        let answer = matcher.explain("https://h0.example.com" + path, steps: &steps)
        #expect(!answer.opensApp && answer.reason.contains("no dynamic_app_link_components rule matches"), "\(answer.reason)")
        #expect(steps <= 3 * path.utf8.count + pattern.utf8.count, "\(steps) steps")
    }

    @Test func theLintLooksEachHostUpOnce() {
        let small = Self.lintSteps(AndroidLinkMatcher(manifest: Self.manifest(hosts: 2_000)))
        let large = Self.lintSteps(AndroidLinkMatcher(manifest: Self.manifest(hosts: 4_000)))
        #expect(small.findings.isEmpty && large.findings.isEmpty)
        Self.expectDoubles(small.steps, large.steps, "hosts looked up")
    }

    @Test func explainingAURLLooksOnlyAtTheHostsThatMatchIt() {
        for count in [100, 4_000] {
            let matcher = AndroidLinkMatcher(manifest: Self.manifest(hosts: count))
            var steps = 0
            let answer = matcher.explain("https://h\(count - 1).example.com/x", steps: &steps)
            #expect(answer.opensApp, "\(answer.reason)")
            // Two entries for the host (one per filter), looked up twice (with the port, and without it for
            // verification), and the one filter examined.
            #expect(steps <= 6, "\(count) hosts: \(steps) steps")
        }
    }

    @Test func theLintComparesEachDynamicRuleWithTheOnesBeforeItByLookup() throws {
        func steps(_ count: Int) throws -> Int {
            let rules = (0..<count).map { #"{"/": "/p\#($0)/*"}"# } + [#"{"/": "/p0/*", "exclude": true}"#]
            let matcher = AndroidLinkMatcher(manifest: Self.manifest(hosts: 1, extra: #"<data android:pathPrefix="/p"/>"#),
                                             statements: try Self.statements(rules: rules), packageName: "com.example.app")
            let (findings, steps) = Self.lintSteps(matcher)
            #expect(findings.map(\.description) == [
                "warning: [0].relation_extensions[\"delegate_permission/common.handle_all_urls\"].dynamic_app_link_components[\(count)]: "
                    + "{\"/\": \"/p0/*\", \"exclude\": true} never decides: dynamic_app_link_components[0] {\"/\": \"/p0/*\"} matches every URL it matches, and the first match wins",
            ])
            return steps
        }
        Self.expectDoubles(try steps(2_000), try steps(4_000), "dynamic rule steps")
    }

    @Test func comparingWithAnAASACostsEachURLItsOwnMatch() throws {
        func steps(_ count: Int) throws -> Int {
            let components = (0..<count).map { #"{"/": "/r\#($0)/*"}"# }.joined(separator: ",")
            let aasa = try AppSiteAssociation(parsing: #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [\#(components)]}]}}"#)
            let paths = (0..<count).map { #"<data android:path="/m\#($0)"/>"# }.joined()
            let matcher = AndroidLinkMatcher(manifest: Self.manifest(hosts: 1, extra: paths + #"<data android:pathPrefix="/r"/>"#))
            let (findings, steps) = Self.lintSteps(matcher, aasa: aasa)
            // Every `/mN`, and the `/rx` made from the prefix, opens the app on Android only; every `/rN/x` on both.
            #expect(findings.filter { $0.code == .platformsDisagree }.count == count + 1)
            #expect(!findings.contains { $0.code == .comparisonsStopped })
            return steps
        }
        Self.expectDoubles(try steps(1_000), try steps(2_000), "comparison steps")
    }

    @Test func theComparisonsStopAtTheirBudgetAndSaySo() throws {
        let components = (0..<200).map { #"{"/": "/r\#($0)/*"}"# }.joined(separator: ",")
        let aasa = try AppSiteAssociation(parsing: #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [\#(components)]}]}}"#)
        let matcher = AndroidLinkMatcher(manifest: Self.manifest(hosts: 50, extra: #"<data android:pathPrefix="/r"/>"#))
        let (findings, steps) = Self.lintSteps(matcher, aasa: aasa, budget: 5_000)
        let stopped = try #require(findings.first { $0.code == .comparisonsStopped })
        #expect(stopped.severity == .warning)
        #expect(stopped.message.hasPrefix("iOS and Android were compared up to the comparison budget (5000 matching steps): on "))
        #expect(stopped.message.hasSuffix(" of 10050 URLs; give the URLs that matter as arguments, they are compared first"))
        // The budget and the one URL being compared when it ran out.
        #expect(steps < 5_000 + 1_000, "\(steps) steps")
    }

    /// The index answers as comparing each host and path would, on random filters and URLs.
    @Test(arguments: [1, 2, 3])
    func theFilterIndexAgreesWithComparingEachHostAndPath(seed: UInt64) throws {
        var rng = SeededGenerator(state: seed)
        let labels = ["a", "b", "ab", "example", "EXAMPLE", "é", "e\u{301}"]
        func host() -> String { (0..<Int.random(in: 1...3, using: &rng)).map { _ in labels.randomElement(using: &rng)! }.joined(separator: ".") }
        let pieces = ["/", "a", "b", "ab", ".", "é", "e\u{301}"]
        func path() -> String { (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined() }
        var filters: [AndroidIntentFilter] = []
        for _ in 0..<12 {
            let authorities = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
                AndroidIntentFilter.Authority(
                    host: (Bool.random(using: &rng) ? "*" : "") + (Bool.random(using: &rng) ? "." : "") + host(),
                    port: Bool.random(using: &rng) ? nil : Int.random(in: 1...2, using: &rng))
            }
            let patterns = try (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                try AndroidPattern(path(), kind: AndroidPattern.Kind.allCases.filter { $0 != .advancedGlob }.randomElement(using: &rng)!)
            }
            filters.append(AndroidIntentFilter(schemes: ["https"], authorities: authorities, paths: patterns))
        }
        let index = AndroidFilterIndex(AndroidManifest(intentFilters: filters))
        for _ in 0..<400 {
            let uriHost = host(), port = Int.random(in: -1...2, using: &rng)
            let uriPath = Array(path().utf16)
            var steps = 0
            let key = AndroidFilterIndex.hostKey(uriHost)
            let byPort = index.filters(host: key, port: port, steps: &steps)
            let anyPort = index.filters(host: key, port: nil, steps: &steps)
            #expect(byPort == filters.indices.filter { f in filters[f].authorities.contains { $0.matches(host: uriHost, port: port) } })
            #expect(anyPort == filters.indices.filter { f in filters[f].authorities.contains { $0.matches(host: uriHost, port: $0.port ?? -1) } })
            let affixes = index.filtersWithAffixTaking(uriPath)
            for f in filters.indices {
                #expect(index.pathTakes(f, uriPath, affixes: affixes) == filters[f].paths.contains { $0.matches(utf16: uriPath) })
            }
        }
    }
}
