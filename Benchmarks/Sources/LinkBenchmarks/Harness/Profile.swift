import AssociatedDomains
import Dispatch
import Foundation
import UniversalLinkKit
import UniversalLinkKitTesting

/// `--profile NAME`: runs one case a fixed number of times without timing, for `valgrind --tool=callgrind`,
/// whose instruction counts do not depend on what else the machine is doing.
enum Profile {
    static let names = [
        "route-hit", "route-hit-full", "route-cold", "aasa-realistic", "aasa-shared",
        "resolve-direct", "transport-direct", "resolve-none", "manager-instant", "manager-none", "manager-floor",
        "broadcast-post",
    ]

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
            guard let file = try? AppSiteAssociation(parsing: AASAFixture.file(rules: 1_000, variant: variant).utf8) else {
                preconditionFailure("fixture does not parse")
            }
            let matcher = AppLinkMatcher(file)
            let url = AASAFixture.url(matchingLastOf: 1_000, variant: variant)
            for _ in 0..<iterations {
                blackHole(matcher.match(url, appID: AASAFixture.appID, domain: AASAFixture.domain).outcome)
            }
        case "resolve-direct", "transport-direct", "resolve-none":
            // Sequential links against the loopback stub, as `resolution/overhead` runs them. Comparing the
            // instruction counts of two runs of each with different N gives what one link costs the resolver on
            // top of its transport (the stub's own work is the same in both). `resolve-none` starts the stub and
            // the sessions but sends nothing: the fixed cost.
            let finished = DispatchSemaphore(value: 0)
            Task.detached {
                do {
                    try await resolveLinks(name, iterations: iterations)
                } catch {
                    preconditionFailure("\(name) failed: \(error)")
                }
                finished.signal()
            }
            finished.wait()
        case "manager-instant", "manager-none":
            // `LinkManager.resolve` over a transport that answers at once, as `manager/resolve_instant` runs it:
            // the difference of two runs with different N is what one link costs the manager and the resolver,
            // apart from any network. `manager-none` creates the manager and sends one link: the fixed cost.
            let finished = DispatchSemaphore(value: 0)
            Task.detached {
                await resolveInstantly(iterations: name == "manager-none" ? 0 : iterations)
                finished.signal()
            }
            finished.wait()
        case "manager-floor":
            // `manager/resolve_instant`'s `floor` subject: one task, one insert, one decode per link.
            let finished = DispatchSemaphore(value: 0)
            Task.detached {
                _ = await ManagerGroup.floor(links: iterations, from: 0)
                finished.signal()
            }
            finished.wait()
        case "broadcast-post":
            // `broadcast/post_1`'s counting-observer subject: one link posted ITERATIONS times to an observer that
            // only checks that a userInfo came. Posted ten at a time, then awaited on a semaphore rather than by
            // spinning, so that the counts are the two threads' work alone, and the delivery thread goes from link
            // to link as it does when its linger catches each (under valgrind a linger would always miss).
            let center = NotificationCenter()
            let delivered = DispatchSemaphore(value: 0)
            let token = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { notification in
                precondition(notification.userInfo != nil)
                delivered.signal()
            }
            let manager = BroadcastGroup.poster(center: center)
            for _ in 0..<iterations / 10 {
                for _ in 0..<10 { manager.handleInAppHyperlink(BroadcastGroup.link.requestedURL) }
                for _ in 0..<10 { delivered.wait() }
            }
            center.removeObserver(token)
        default:
            preconditionFailure("unknown profile \(name)")
        }
    }

    private static func resolveInstantly(iterations: Int) async {
        let manager = LinkManager(transport: ManagerGroup.instantTransport(), notificationCenter: NotificationCenter())
        for serial in 0...iterations {
            let outcome = try? await manager.resolve(URL(string: "https://news.example.com/pub/acc?_ri_=\(serial)")!)
            // As `manager/resolve_instant` does, nothing is read from the link but whether it resolved: its
            // destinations stay text until a caller asks for a `URL`, and what a caller reads is the caller's cost.
            precondition(outcome?.resolvedLink != nil && outcome?.resolvedLink?.error == nil)
        }
        await manager.shutdown()
    }

    private static func resolveLinks(_ name: String, iterations: Int) async throws {
        let stub = try ResolutionGroup.makeStub()
        defer { stub.shutdown() }
        let resolver = ResolutionGroup.directResolver()
        guard let transport = CurlTransport.make() else { preconditionFailure("libcurl cannot be loaded") }
        // One link of each first, so that both runs pay the same one-time costs (connection, lazy globals).
        let count = name == "resolve-none" ? 0 : iterations
        for serial in 0...count {
            let url = stub.url("/pub/acc?_ri_=X0Gzc2X%3DYQpglLjHJlTQGzdRjzd\(serial)&_ei_=EOl")
            if name == "transport-direct" {
                let response = try await transport.send(ResolutionGroup.bareRequest(url), maxBodyBytes: 64 * 1024)
                precondition(response.statusCode == 200)
            } else {
                let resolved = try await resolver.resolve(url)
                precondition(resolved.error == nil)  // a URL is the caller's to build
            }
        }
    }
}
