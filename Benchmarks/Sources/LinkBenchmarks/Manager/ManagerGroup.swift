import Foundation
import Synchronization
import UniversalLinkKit

/// Group `manager`: one `LinkManager.resolve(_:timeout:)` per link, each a new click, over a transport that answers at
/// once, without an event handler and with one that only counts: what events cost on the hot path (nothing measurable
/// without a handler is the promise), apart from any network.
///
/// The two subjects run in interleaved rounds of `links` sequential calls; the ratio is the median of per-round
/// ratios against the manager without events.
///
/// A third subject, `floor`, is the least any such manager could do per link: one task, one dictionary insert
/// keyed by the link, one `JSONDecoder` decode of the same answer body. The manager rows carry
/// `floor_multiple`, their time as a multiple of it (the issue's moonshot: 3).
enum ManagerGroup {
    static let links = 2_000

    static func run(rounds: Int) async -> [Measurement] {
        let transport = instantTransport()
        let counted = Counted()
        var withEvents = LinkManager.Configuration()
        withEvents.eventHandler = LinkEventHandler { _ in counted.add() }
        let subjects: [(name: String, configuration: LinkManager.Configuration)] = [
            ("UniversalLinkKit-events-off", LinkManager.Configuration()),
            ("UniversalLinkKit-events-on", withEvents),
        ]
        var samples = Array(repeating: [Double](), count: subjects.count)
        var floorSamples: [Double] = []
        var serial = 0
        for _ in 0..<max(rounds, 3) {
            floorSamples.append(await floor(links: links, from: serial))
            serial += links
            for (index, subject) in subjects.enumerated() {
                // A new manager per round: its duplicate window would otherwise hold every link of the round.
                let manager = LinkManager(
                    configuration: subject.configuration, transport: transport, notificationCenter: NotificationCenter())
                let start = ContinuousClock.now
                for _ in 0..<links {
                    serial += 1
                    _ = try? await manager.resolve(URL(string: "https://news.example.com/pub/acc?_ri_=\(serial)")!)
                }
                let elapsed = ContinuousClock.now - start
                await manager.shutdown()
                let (seconds, attoseconds) = elapsed.components
                samples[index].append((Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(links))
            }
        }
        precondition(counted.value > 0, "the handler must have seen events")
        let floorSummary = Timer.summarize(floorSamples)
        return subjects.enumerated().map { index, subject in
            let (ns, spread) = Timer.summarize(samples[index])
            let ratios = zip(samples[index], samples[0]).map { $0 / $1 }.sorted()
            let multiples = zip(samples[index], floorSamples).map { $0 / $1 }.sorted()
            return Measurement(
                group: "manager", caseName: "resolve_instant", size: links, subject: subject.name, nsPerOp: ns,
                spread: spread, ratio: ratios[ratios.count / 2],
                extras: [("floor_multiple", multiples[multiples.count / 2])])
        } + [
            Measurement(
                group: "manager", caseName: "resolve_instant", size: links, subject: "floor", nsPerOp: floorSummary.ns,
                spread: floorSummary.spread)
        ]
    }

    /// A transport that answers at once: every call returns the same response, built once, so the manager rows hold
    /// no transport's work. (Until the seventeenth session it built a new response, a header dictionary and its
    /// lower-cased copy, on every call: 4 900 instructions a link, 9 % of the manager's, that were the benchmark's.)
    static func instantTransport() -> InstantTransport {
        InstantTransport(answer: TransportResponse(
            statusCode: 200, headerFields: ["Content-Type": "application/json"], body: body))
    }

    /// Answers every request with the same response.
    struct InstantTransport: LinkTransport {
        let answer: TransportResponse

        func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse { answer }
    }

    /// The answer body every subject decodes.
    static let body = Data(#"{"webLinkUrl":"https://www.example.com/p","mobileDeepLinkUrl":"example-app://p"}"#.utf8)

    struct Answer: Decodable {
        var webLinkUrl: String?
        var mobileDeepLinkUrl: String?
    }

    /// One task, one dictionary insert, one decode per link: nanoseconds per link.
    static func floor(links: Int, from serial: Int) async -> Double {
        var seen: [URL: Answer] = [:]
        seen.reserveCapacity(links)
        let decoder = JSONDecoder()
        let start = ContinuousClock.now
        for offset in 0..<links {
            // The link is made as the manager's loop makes it, so both pay for the URL alike.
            let key = URL(string: "https://news.example.com/pub/acc?_ri_=\(serial + offset)")!
            let answer = await Task { try? decoder.decode(Answer.self, from: body) }.value
            seen[key] = answer
        }
        let elapsed = ContinuousClock.now - start
        precondition(seen.count == links)
        let (seconds, attoseconds) = elapsed.components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(links)
    }

    /// Counts events, so a handler that is never called would be noticed.
    final class Counted: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }
}
