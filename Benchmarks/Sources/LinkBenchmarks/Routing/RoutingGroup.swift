/// Group `routing`: the four cases at N = 10 ... 10 000 resources for every subject, then the cold start.
enum RoutingGroup {
    static let sizes = [10, 100, 1_000, 10_000]
    static var subjects: [any RoutingSubject.Type] {
        [
        UniversalLinkKitSubject.self, UniversalLinkKitFullDictionarySubject.self, RoutingKitSubject.self, RoutingKitPresplitSubject.self,
        HummingbirdSubject.self, LinearScanSubject.self,
        ]
    }

    static func run(report: (Measurement) -> Void) {
        for size in sizes {
            let fixture = RouteTableFixture(resources: size)
            let patterns = fixture.patterns
            let built = subjects.map { $0.init(patterns: patterns) }
            for routingCase in RoutingCase.allCases {
                let url = fixture.url(for: routingCase)
                for subject in built {
                    // A subject that disagrees with the others on the outcome would be measuring something else.
                    precondition(subject.route(url) == routingCase.expectsHit, "\(type(of: subject).name) \(routingCase) \(url)")
                }
                // Interleaved, ours first: the ratios come from batches timed side by side.
                let results = Timer.measureInterleaved(built.map { subject in { blackHole(subject.route(url)) } })
                for (subject, result) in zip(built, results) {
                    report(Measurement(
                        group: "routing", caseName: routingCase.rawValue, size: size, subject: type(of: subject).name,
                        nsPerOp: result.ns, spread: result.spread, ratio: result.ratio, variant: type(of: subject).variant))
                }
            }
        }
        coldStart(report: report)
    }

    /// A cold process: a new router, 100 routes (25 resources) registered, one URL routed.
    static func coldStart(report: (Measurement) -> Void) {
        let fixture = RouteTableFixture(resources: 25)
        let patterns = fixture.patterns
        let url = fixture.url(for: .hitLastParam2)
        var ours: Double?
        for subjectType in subjects where subjectType.name != RoutingKitPresplitSubject.name {
            let (ns, spread) = Timer.measureKeeping {
                let subject = subjectType.init(patterns: patterns)
                blackHole(subject.route(url))
                return subject
            }
            if subjectType.name == UniversalLinkKitSubject.name { ours = ns }
            // A variant row has no same-variant row of ours for the table to divide by: give the ratio here.
            let ratio = subjectType.variant == nil ? nil : ours.map { ns / $0 }
            report(Measurement(
                group: "routing", caseName: "cold_start_100", size: patterns.count, subject: subjectType.name,
                nsPerOp: ns, spread: spread, ratio: ratio, variant: subjectType.variant))
        }
    }
}
