import Foundation
import UniversalLinkKit
import UniversalLinkKitTesting

/// Group `resolution`: real HTTP over loopback to `ResponseHandlerStub`.
///
/// - `overhead`: one resolution at a time; `LinkResolver` as an app runs it (policy, deadline, request building,
///   strict JSON decoding, on its default transport: `CurlTransport` on Linux; the policy admits the loopback
///   stub) against a raw `URLSession` GET of the same URL with the same settings. Extra figures:
///   `transport_only_ns` (the default transport's `send` alone), `own_percent` (the resolver's own cost as a
///   percentage of it: the median over batches of each resolver batch against the transport batch run beside it),
///   `manager_percent` (`manager/resolve_instant`'s subject, a `LinkManager` over a transport that answers at once,
///   timed in the same batches, as a percentage of it), `floor_percent` (the `manager` group's `floor`, the same
///   way), and `wrapped_ns` / `wrapped_overhead_percent` (the resolver through `StubHostTransport` over
///   `URLSessionTransport`, the tests' host-mapping wrapper: the URLSession path, plus the wrapper's URL rewrite).
///   Batches of all six alternate, so drift on the shared machine hits them alike. `manager_percent_prebuilt` is
///   `manager_percent` with both subjects' inputs made before their batches are timed (the manager's URLs, the bare
///   transport's requests), in two more batches of each round: in the batches above each subject also builds its
///   input in the timed loop (one URL a link for the manager, two for the transport), which is the caller's work.
///   `own_percent_paired` is the resolver's own cost measured request by request instead: in a seventh batch, each
///   link is resolved and sent through the transport alone one after the other (the order swapped every link), each
///   timed on its own, and the batch's percentage is the difference of the two sums; the median over batches. It
///   keeps the position of a batch in the round out of the figure, which batch-against-batch ratios of 300 us
///   requests are not free of.
/// - `named`: the resolver on its default transport, the link's host a name the system resolves (`localhost`)
///   instead of an IP literal; `lookup_every_link_ns` is the same with the transport's name cache off.
/// - `burst_1000`: 1 000 distinct tracking links, 16 in flight at a time (the transport's connection limit, and
///   about what a backend resolving a campaign's clicks keeps open), done three ways: our resolver on one shared
///   session, the raw shared session, and a new ephemeral session per link as in the Responsys guide's sample;
///   rounds interleave the three. Reported per link, with requests per second and p50/p99 latency of single
///   links.
enum ResolutionGroup {
    static let host = "news.example.com"
    static let concurrency = 16
    static let burstSize = 1_000

    /// The loopback Response Handler every resolution case talks to, with one app link.
    static func makeStub() throws -> ResponseHandlerStub {
        try ResponseHandlerStub(links: [
            "/pub/acc": .init(webLinkUrl: "https://www.example.com/products/1234", mobileDeepLinkUrl: "example-app://products/1234"),
        ])
    }

    /// The production path: the default transport, the tracking URL requested as is. The policy admits the stub
    /// (http, 127.0.0.1); its check costs the same as for an https branded host.
    static func directResolver(transport: (any LinkTransport)? = nil) -> DirectResolver {
        var configuration = LinkManager.Configuration()
        configuration.policy = ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true)
        return DirectResolver(configuration: configuration, transport: transport)
    }

    /// The bare transport's request for `url`: the headers the resolver sends, the stub's loopback address allowed.
    /// Built in the timed loops as a caller of the transport would build it.
    static func bareRequest(_ url: URL) -> TransportRequest {
        TransportRequest(url: url, headerFields: [
            "Accept": "application/json", "User-Agent": "ResponsysPubWebResolver (CPU iPhone OS like Mac OS X)",
        ], allowsLocalAddresses: true)
    }

    static func run(rounds: Int) async throws -> [Measurement] {
        var results: [Measurement] = []
        func report(_ measurement: Measurement) { results.append(measurement) }
        let stub = try makeStub()
        defer { stub.shutdown() }
        let resolver = directResolver()
        // What the tests run: a wrapper mapping news.example.com to the stub, over the default transport.
        let wrapped = DirectResolver(transport: StubHostTransport(hosts: [host], stub: stub))
        // For locating the overhead: the library's default transport alone, same request, no resolver around it.
        guard let transport = CurlTransport.make() else { preconditionFailure("libcurl cannot be loaded") }
        let raw = RawSession()
        var serial = 0
        func nextLink() -> (tracking: URL, direct: URL) {
            serial += 1
            let query = "/pub/acc?_ri_=X0Gzc2X%3DYQpglLjHJlTQGzdRjzd\(serial)&_ei_=EOl"
            return (URL(string: "https://\(host)\(query)")!, stub.url(query))
        }

        // Overhead, sequential.
        let perBatch = 200
        var ours: [Double] = []
        var theirs: [Double] = []
        var transportOnly: [Double] = []
        var wrappedTimes: [Double] = []
        var managerTimes: [Double] = []
        var floorTimes: [Double] = []
        var pairedPercents: [Double] = []
        var prebuiltPercents: [Double] = []
        // `manager/resolve_instant`'s subject, timed here too so its share of `transport_only` is a ratio of batches
        // that ran side by side (a new manager per batch: its duplicate window would otherwise hold every link).
        let instant = ManagerGroup.instantTransport()
        let clock = ContinuousClock()
        for batch in -1..<rounds * 2 {
            let oursTime = try await clock.measure {
                for _ in 0..<perBatch {
                    let resolved = try await resolver.resolve(nextLink().direct)
                    precondition(resolved.error == nil)  // a URL is the caller's to build
                }
            }
            let rawTime = try await clock.measure {
                for _ in 0..<perBatch {
                    let status = try await raw.get(nextLink().direct)
                    precondition(status == 200)
                }
            }
            let transportTime = try await clock.measure {
                for _ in 0..<perBatch {
                    let request = bareRequest(nextLink().direct)
                    let response = try await transport.send(request, maxBodyBytes: 64 * 1024)
                    precondition(response.statusCode == 200)
                }
            }
            let wrappedTime = try await clock.measure {
                for _ in 0..<perBatch {
                    let resolved = try await wrapped.resolve(nextLink().tracking)
                    precondition(resolved.error == nil)  // a URL is the caller's to build
                }
            }
            let manager = LinkManager(transport: instant, notificationCenter: NotificationCenter())
            let managerTime = await clock.measure {
                for _ in 0..<perBatch {
                    serial += 1
                    _ = try? await manager.resolve(URL(string: "https://news.example.com/pub/acc?_ri_=\(serial)")!)
                }
            }
            await manager.shutdown()
            let floorTime = await ManagerGroup.floor(links: perBatch, from: serial)
            serial += perBatch
            // The same two subjects with their inputs made before the clock starts: the manager's URLs, the bare
            // transport's requests (whose URLs the batches above build in the timed loop, two a link).
            let managerURLs = (0..<perBatch).map { URL(string: "https://news.example.com/pub/acc?_ri_=\(serial + $0)")! }
            serial += perBatch
            let prebuiltManager = LinkManager(transport: instant, notificationCenter: NotificationCenter())
            let managerPrebuiltTime = await clock.measure {
                for url in managerURLs { _ = try? await prebuiltManager.resolve(url) }
            }
            await prebuiltManager.shutdown()
            let requests = (0..<perBatch).map { _ in bareRequest(nextLink().direct) }
            let transportPrebuiltTime = try await clock.measure {
                for request in requests {
                    let response = try await transport.send(request, maxBodyBytes: 64 * 1024)
                    precondition(response.statusCode == 200)
                }
            }
            var resolverSum: Duration = .zero
            var transportSum: Duration = .zero
            for link in 0..<perBatch {
                for resolverFirst in link % 2 == 0 ? [true, false] : [false, true] {
                    let url = nextLink().direct
                    if resolverFirst {
                        let start = clock.now
                        let resolved = try await resolver.resolve(url)
                        resolverSum += clock.now - start
                        precondition(resolved.error == nil)
                    } else {
                        let start = clock.now
                        let request = bareRequest(url)
                        let response = try await transport.send(request, maxBodyBytes: 64 * 1024)
                        transportSum += clock.now - start
                        precondition(response.statusCode == 200)
                    }
                }
            }
            guard batch >= 0 else { continue }  // warm-up
            pairedPercents.append((Timer.nanoseconds(resolverSum) - Timer.nanoseconds(transportSum)) / Timer.nanoseconds(transportSum) * 100)
            managerTimes.append(Timer.nanoseconds(managerTime) / Double(perBatch))
            prebuiltPercents.append(Timer.nanoseconds(managerPrebuiltTime) / Timer.nanoseconds(transportPrebuiltTime) * 100)
            floorTimes.append(floorTime)
            ours.append(Timer.nanoseconds(oursTime) / Double(perBatch))
            wrappedTimes.append(Timer.nanoseconds(wrappedTime) / Double(perBatch))
            theirs.append(Timer.nanoseconds(rawTime) / Double(perBatch))
            transportOnly.append(Timer.nanoseconds(transportTime) / Double(perBatch))
        }
        // Each subject against the transport-only batch of the same round: a difference of two medians taken apart
        // mixes in drift between batches, which on this shared machine was larger than the resolver's own cost.
        let ownPercents = zip(ours, transportOnly).map { ($0 - $1) / $1 * 100 }.sorted()
        let managerPercents = zip(managerTimes, transportOnly).map { $0 / $1 * 100 }.sorted()
        let floorPercents = zip(floorTimes, transportOnly).map { $0 / $1 * 100 }.sorted()
        let oursSummary = Timer.summarize(ours)
        let rawSummary = Timer.summarize(theirs)
        let wrappedSummary = Timer.summarize(wrappedTimes)
        report(Measurement(
            group: "resolution", caseName: "overhead", size: 1, subject: "UniversalLinkKit",
            nsPerOp: oursSummary.ns, spread: oursSummary.spread,
            extras: [
                ("overhead_percent", (oursSummary.ns - rawSummary.ns) / rawSummary.ns * 100),
                ("transport_only_ns", Timer.summarize(transportOnly).ns),
                ("own_percent", ownPercents[ownPercents.count / 2]),
                ("own_percent_paired", pairedPercents.sorted()[pairedPercents.count / 2]),
                ("manager_percent", managerPercents[managerPercents.count / 2]),
                ("manager_percent_prebuilt", prebuiltPercents.sorted()[prebuiltPercents.count / 2]),
                ("floor_percent", floorPercents[floorPercents.count / 2]),
                ("wrapped_ns", wrappedSummary.ns),
                ("wrapped_overhead_percent", (wrappedSummary.ns - rawSummary.ns) / rawSummary.ns * 100),
            ]))
        report(Measurement(
            group: "resolution", caseName: "overhead", size: 1, subject: "URLSession",
            nsPerOp: rawSummary.ns, spread: rawSummary.spread))

        // Named: the tracking host as a name the system resolves ("localhost", from /etc/hosts), as a production
        // link's host is, the transport keeping the answer (its default) against looking the name up every link.
        let namedURL = { (serial: Int) in URL(string: "http://localhost:\(stub.port)/pub/acc?_ri_=named\(serial)")! }
        var namedSubjects: [DirectResolver] = []
        for lifetime in [Duration.seconds(60), .zero] {
            guard let transport = CurlTransport.make(configuration: .init(nameCacheLifetime: lifetime)) else { break }
            namedSubjects.append(directResolver(transport: transport))
        }
        if namedSubjects.count == 2 {
            var namedTimes = [[Double](), [Double]()]
            for batch in -1..<rounds * 2 {
                for (index, subject) in namedSubjects.enumerated() {
                    let time = try await clock.measure {
                        for _ in 0..<perBatch {
                            serial += 1
                            let resolved = try await subject.resolve(namedURL(serial))
                            precondition(resolved.error == nil)
                        }
                    }
                    if batch >= 0 { namedTimes[index].append(Timer.nanoseconds(time) / Double(perBatch)) }
                }
            }
            let (kept, everyLink) = (Timer.summarize(namedTimes[0]), Timer.summarize(namedTimes[1]))
            report(Measurement(
                group: "resolution", caseName: "named", size: 1, subject: "UniversalLinkKit",
                nsPerOp: kept.ns, spread: kept.spread,
                extras: [("lookup_every_link_ns", everyLink.ns)]))
        }

        // Bursts.
        let subjects: [(String, @Sendable (URL, URL) async throws -> Void)] = [
            ("UniversalLinkKit", { _, direct in _ = try await resolver.resolve(direct) }),
            ("URLSession", { _, direct in _ = try await raw.get(direct) }),
            ("SessionPerLink", { _, direct in _ = try await RawSession.getWithNewSession(direct) }),
        ]
        // Rounds interleave the subjects (one burst of each per round), so that load drifting on the shared
        // machine hits all three alike instead of whichever subject ran during a busy spell.
        var perLink = Array(repeating: [Double](), count: subjects.count)
        var latencies = Array(repeating: [Double](), count: subjects.count)
        for round in -1..<max(rounds / 2, 3) {
            for (index, (_, send)) in subjects.enumerated() {
                let links = (0..<burstSize).map { _ in nextLink() }
                let (wall, roundLatencies) = try await burst(links, send: send)
                guard round >= 0 else { continue }  // warm-up: connections opened, code paged in
                perLink[index].append(wall / Double(burstSize))
                latencies[index] += roundLatencies
            }
        }
        for (index, (name, _)) in subjects.enumerated() {
            let summary = Timer.summarize(perLink[index])
            let sorted = latencies[index].sorted()
            report(Measurement(
                group: "resolution", caseName: "burst_1000", size: burstSize, subject: name,
                nsPerOp: summary.ns, spread: summary.spread,
                extras: [
                    ("requests_per_second", 1e9 / summary.ns),
                    ("p50_us", Timer.percentile(sorted, 0.5) / 1_000),
                    ("p99_us", Timer.percentile(sorted, 0.99) / 1_000),
                ]))
        }
        return results
    }

    /// Sends every link with at most ``concurrency`` in flight; the wall time and each link's latency, in ns.
    static func burst(
        _ links: [(tracking: URL, direct: URL)], send: @escaping @Sendable (URL, URL) async throws -> Void
    ) async throws -> (wall: Double, latencies: [Double]) {
        let clock = ContinuousClock()
        let start = clock.now
        let latencies = try await withThrowingTaskGroup(of: Double.self) { group in
            var latencies: [Double] = []
            latencies.reserveCapacity(links.count)
            var next = 0
            func launch() {
                let link = links[next]
                next += 1
                group.addTask {
                    let begin = ContinuousClock.now
                    try await send(link.tracking, link.direct)
                    return Timer.nanoseconds(ContinuousClock.now - begin)
                }
            }
            while next < min(concurrency, links.count) { launch() }
            while let latency = try await group.next() {
                latencies.append(latency)
                if next < links.count { launch() }
            }
            return latencies
        }
        return (Timer.nanoseconds(clock.now - start), latencies)
    }
}
