import AssociatedDomains

/// `--profile NAME`: runs one case a fixed number of times without timing, for `valgrind --tool=callgrind`,
/// whose instruction counts do not depend on what else the machine is doing.
enum Profile {
    static let names = ["route-hit", "route-hit-full", "route-cold", "aasa-realistic", "aasa-shared"]

    static func run(_ name: String, iterations: Int) {
        switch name {
        case "route-hit":
            let fixture = RouteTableFixture(resources: 1_000)
            let subject = UniversalLinkKitSubject(patterns: fixture.patterns)
            let url = fixture.url(for: .hitLastParam2)
            for _ in 0..<iterations { blackHole(subject.route(url)) }
        case "route-hit-full":
            let fixture = RouteTableFixture(resources: 1_000)
            let subject = UniversalLinkKitFullDictionarySubject(patterns: fixture.patterns)
            let url = fixture.url(for: .hitLastParam2)
            for _ in 0..<iterations { blackHole(subject.route(url)) }
        case "route-cold":
            let fixture = RouteTableFixture(resources: 25)
            let patterns = fixture.patterns
            let url = fixture.url(for: .hitLastParam2)
            var kept: [UniversalLinkKitSubject] = []
            for _ in 0..<iterations {
                let subject = UniversalLinkKitSubject(patterns: patterns)
                blackHole(subject.route(url))
                kept.append(subject)
            }
            blackHole(kept.count)
        case "aasa-realistic", "aasa-shared":
            let variant: AASAFixture.Variant = name == "aasa-shared" ? .sharedPrefix : .responsysLike
            guard let matcher = try? AppLinkMatcher(parsing: Array(AASAFixture.file(rules: 1_000, variant: variant).utf8)) else {
                preconditionFailure("fixture does not parse")
            }
            let url = AASAFixture.url(matchingLastOf: 1_000, variant: variant)
            for _ in 0..<iterations {
                blackHole(matcher.match(url, appID: AASAFixture.appID, domain: AASAFixture.domain).outcome)
            }
        default:
            preconditionFailure("unknown profile \(name)")
        }
    }
}
