import Foundation
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// Activations through a real transport (the Linux default, `CurlTransport`, and `URLSessionTransport`) while the
/// loopback stub misbehaves at random.
///
/// Each distinct tracking link is given one fault, chosen at random (seeded), that the stub applies to every
/// request for it, the retry included; so each link's error code and request count are known in advance. Every
/// link is activated more than once (a repeat while it is in flight, another after it completed), and the repeats
/// must make no request and no notification.
///
/// `swift test` runs a short soak; `ULK_SOAK_ACTIVATIONS=10000 swift test --filter FaultInjectionSoakTests`
/// (`.ci/soak`) runs the long one. `ULK_SOAK_SEED` replays a run.
struct FaultInjectionSoakTests {
    /// One kind of misbehaviour, what the stub does, and what the user must see.
    struct Fault: Sendable, CustomStringConvertible {
        var name: String
        var weight: Int
        var behavior: Behavior
        var expected: LinkError.Code?
        /// The requests the stub sees for the link: the resolver's one retry (no answer, 503) included.
        var requests: ClosedRange<Int>
        /// Whether `URLSessionTransport` may send more: libcurl under FoundationNetworking re-sends a request whose
        /// reused keep-alive connection died before any status line. `CurlTransport` refuses that re-send.
        var resentByURLSession = false
        var description: String { name }
    }

    static let faults: [Fault] = [
        Fault(name: "normal", weight: 40, behavior: .normal, expected: nil, requests: 1...1),
        Fault(name: "delay", weight: 8, behavior: .delay(0.02), expected: nil, requests: 1...1),
        Fault(name: "fast trickle", weight: 4, behavior: .trickle(bytesPerChunk: 64, interval: 0.002),
              expected: nil, requests: 1...1),
        Fault(name: "500", weight: 6, behavior: .status(500), expected: .httpStatus, requests: 1...1),
        Fault(name: "503", weight: 6, behavior: .status(503), expected: .httpStatus, requests: 2...2),
        Fault(name: "malformed JSON", weight: 6, behavior: .json(#"{"webLinkUrl": "https://w"#),
              expected: .invalidResponse, requests: 1...1),
        Fault(name: "wrong type", weight: 4, behavior: .json(#"{"webLinkUrl": 42, "mobileDeepLinkUrl": []}"#),
              expected: .invalidResponse, requests: 1...1),
        Fault(name: "oversized body", weight: 5, behavior: .hugeBody(bytes: 4 * 1024 * 1024),
              expected: .responseTooLarge, requests: 1...1),
        // Exactly the resolver's two attempts through `CurlTransport`. Through URLSession, FoundationNetworking's
        // libcurl re-sends a request whose reused keep-alive connection died before any status line, and a reset can
        // kill several pooled connections in a row (Documentation.docc/TheResolution.md); repeats still add none (checked below).
        Fault(name: "drop", weight: 6, behavior: .dropConnection, expected: .network, requests: 2...2,
              resentByURLSession: true),
        Fault(name: "reset", weight: 6, behavior: .resetConnection, expected: .network, requests: 2...2,
              resentByURLSession: true),
        Fault(name: "drop after headers", weight: 4, behavior: .dropAfterHeaders, expected: .network, requests: 1...1),
        Fault(name: "slow trickle", weight: 2, behavior: .trickle(bytesPerChunk: 1, interval: 0.1),
              expected: .timeout, requests: 1...1),
        Fault(name: "no response", weight: 3, behavior: .noResponse, expected: .timeout, requests: 1...1),
    ]

    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return kilobytes.map { $0 * 1024 }
    }

    static var activationCount: Int {
        ProcessInfo.processInfo.environment["ULK_SOAK_ACTIVATIONS"].flatMap { Int($0) } ?? 120
    }

    /// The transport under test.
    enum Transport: String, CaseIterable, Sendable, CustomStringConvertible {
        case curl, urlSession
        var description: String { rawValue }
    }

    @Test(.timeLimit(.minutes(30)), arguments: Transport.allCases)
    func everyActivationUnderRandomFaultsGetsOneNotificationWithTheRightError(
        transport kind: Transport
    ) async throws {
        let seed = ProcessInfo.processInfo.environment["ULK_SOAK_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64.max)
        var generator = SplitMix(state: seed)
        // Three activations per distinct link: the first, a repeat while in flight, a repeat after completion.
        let distinct = max(1, Self.activationCount / 3)
        let totalWeight = Self.faults.reduce(0) { $0 + $1.weight }
        let assigned: [Fault] = (0..<distinct).map { _ in
            var pick = Int.random(in: 0..<totalWeight, using: &generator)
            return Self.faults.first { fault in
                defer { pick -= fault.weight }
                return pick < fault.weight
            }!
        }

        let stub = try ResponseHandlerStub(links: [
            "/pub/acc": .init(webLinkUrl: "https://www.example.com/p", mobileDeepLinkUrl: "example-app://p"),
        ])
        defer { stub.shutdown() }
        // Requests are counted here, and the stub's own recording is dropped as the run goes, so that the resident
        // size measures the library, not a harness remembering every request.
        let requestCounts = Tally()
        stub.setResponder { request in
            let id = (request.query ?? "").split(separator: "&").first { $0.hasPrefix("_ri_=") }
                .flatMap { Int($0.dropFirst(5)) }
            if let id { requestCounts.add("\(id)") }
            return id.map { assigned[$0].behavior }
        }
        let center = NotificationCenter()
        let recorder = NotificationRecorder(center: center)
        var configuration = LinkManager.Configuration(duplicateWindow: .seconds(30))
        // Generous, so a healthy link is never late on a loaded machine; the slow trickle (25 s) and the silent
        // server still run past it.
        configuration.timeout = .seconds(5)
        configuration.resolution.retryDelay = .milliseconds(20)
        let sender: any LinkTransport = switch kind {
        case .curl: try #require(CurlTransport.make())
        case .urlSession: URLSessionTransport()
        }
        defer { sender.shutdown() }
        let manager = LinkManager(
            configuration: configuration,
            transport: StubHostTransport(hosts: ["news.example.com"], stub: stub, transport: sender),
            notificationCenter: center)
        func url(_ n: Int) -> URL { URL(string: "https://news.example.com/pub/acc?_ri_=\(n)&_ei_=soak")! }

        let outcomes = Collector<(n: Int, first: Bool, inFlightRepeat: Bool, lateRepeat: Bool, outcome: LinkOutcome,
                                  requestsWhenResolved: Int)>()
        func requests(_ n: Int) -> Int { requestCounts["\(n)"] }
        // At most 12 links in flight: below URLSession's 16 connections per host, so no request waits for a
        // connection held by a fault and every deadline measures the server, not the queue.
        let inFlight = 12
        var baseline: Int?
        var midpoint: Int?
        var next = 0
        await withTaskGroup(of: Void.self) { group in
            func start(_ n: Int) {
                group.addTask {
                    let first = manager.handle(UserActivity(browsingWeb: url(n)))
                    let repeated = manager.handle(UserActivity(browsingWeb: url(n)))
                    let outcome = await first.outcome
                    let requestsWhenResolved = requests(n)
                    let late = manager.handle(UserActivity(browsingWeb: url(n)))
                    _ = await repeated.outcome
                    _ = await late.outcome
                    outcomes.append((n, !first.isDuplicate, repeated.isDuplicate, late.isDuplicate, outcome,
                                     requestsWhenResolved))
                }
            }
            while next < min(inFlight, distinct) {
                start(next)
                next += 1
            }
            while await group.next() != nil {
                // Resident size once the session, the stub and the pools are warm.
                if baseline == nil, next >= distinct / 10 { baseline = Self.residentBytes() }
                if midpoint == nil, next >= distinct / 2 { midpoint = Self.residentBytes() }
                if next % 256 == 0 { stub.resetRecording() }
                if next < distinct {
                    start(next)
                    next += 1
                }
            }
        }
        let links = await recorder.wait(forCount: distinct, timeout: .seconds(600))
        let after = Self.residentBytes()

        let context = "\(kind), seed \(seed), \(distinct) links"
        #expect(recorder.count == distinct, "\(context)")
        #expect(Set(links.map(\.requestedURL)).count == distinct, "one notification per link; \(context)")
        let results = outcomes.all
        #expect(results.count == distinct)
        #expect(results.allSatisfy { $0.first && $0.inFlightRepeat && $0.lateRepeat }, "repeats are duplicates; \(context)")
        var mismatches: [String] = []
        for result in results {
            let fault = assigned[result.n]
            let code = result.outcome.resolvedLink?.error?.code
            let count = requests(result.n)
            // The repeats (one in flight, one after completion) made no request of their own.
            let allowed = kind == .urlSession && fault.resentByURLSession
                ? fault.requests.lowerBound...Int.max : fault.requests
            if code != fault.expected || !allowed.contains(count) || count != result.requestsWhenResolved {
                mismatches.append("link \(result.n) \(fault): \(code.map { "\($0)" } ?? "no error"), \(count) requests"
                    + " (\(result.requestsWhenResolved) when resolved)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20).joined(separator: "\n")); \(context)")

        if ProcessInfo.processInfo.environment["ULK_SOAK_ACTIVATIONS"] != nil {
            let faults = Dictionary(grouping: results, by: { assigned[$0.n].name }).mapValues(\.count)
            print("soak: \(context); faults \(faults.sorted { $0.key < $1.key }); resident \(baseline.map { $0 >> 20 } ?? -1) MiB"
                  + " after the first tenth, \(midpoint.map { $0 >> 20 } ?? -1) MiB at half, \(after.map { $0 >> 20 } ?? -1) MiB at the end")
        }
        // A soak only (`.ci/soak`, thousands of links): from the first tenth to the end, resident memory may grow by a
        // fixed slack for pools and allocator caches plus 2 KiB a link, so a leak of a body, a session or a task per
        // link (several KiB each) shows. A run of a few dozen links in `swift test` cannot tell a leak from noise.
        if ProcessInfo.processInfo.environment["ULK_SOAK_ACTIVATIONS"] != nil, let baseline, let after {
            let growth = after - baseline
            let bound = 32 * 1024 * 1024 + distinct * 2 * 1024
            #expect(growth < bound, "resident size grew by \(growth / 1024) KiB, bound \(bound / 1024) KiB; \(context)")
        }
    }
}
