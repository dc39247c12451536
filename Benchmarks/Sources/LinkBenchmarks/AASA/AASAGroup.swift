import AssociatedDomains
import Foundation

/// Group `aasa`: one URL against files of 10, 100 and 1 000 rules (both fixture variants), and parsing a 128 KB file.
enum AASAGroup {
    static let sizes = [10, 100, 1_000]

    static func run(report: (Measurement) -> Void) {
        for variant in AASAFixture.Variant.allCases {
            for size in sizes {
                let text = AASAFixture.file(rules: size, variant: variant)
                guard let file = try? AppSiteAssociation(parsing: text.utf8) else {
                    preconditionFailure("the generated \(variant.rawValue) file of \(size) rules does not parse")
                }
                let matcher = AppLinkMatcher(file)
                let url = AASAFixture.url(matchingLastOf: size, variant: variant)
                let expected = matcher.match(url, appID: AASAFixture.appID, domain: AASAFixture.domain)
                precondition(
                    expected.keyPath == "applinks.details[0].components[\(size - 1)]",
                    "\(variant.rawValue) \(size): \(expected.explanation)")
                let (ns, spread) = Timer.measure {
                    blackHole(matcher.match(url, appID: AASAFixture.appID, domain: AASAFixture.domain).outcome)
                }
                report(Measurement(
                    group: "aasa", caseName: "match_url", size: size, subject: "UniversalLinkKit", nsPerOp: ns,
                    spread: spread, variant: variant.rawValue))
            }
        }

        let (text, rules) = AASAFixture.file128K()
        let bytes = Array(text.utf8)
        let data = Data(bytes)
        let (ns, spread) = Timer.measure { blackHole(try? AppSiteAssociation(parsing: bytes)) }
        // For scale, not a peer: Foundation's untyped JSON reader on the same bytes.
        let foundation = Timer.measure { blackHole(try? JSONSerialization.jsonObject(with: data)) }
        let compile = Timer.measure { blackHole((try? AppSiteAssociation(parsing: bytes)).map { AppLinkMatcher($0) }) }
        report(Measurement(
            group: "aasa", caseName: "parse_128k", size: bytes.count, subject: "UniversalLinkKit", nsPerOp: ns,
            spread: spread, variant: "responsys-like, \(rules) rules",
            extras: [("parse_and_compile_ns", compile.ns), ("jsonserialization_ns", foundation.ns)]))
    }
}
