import Foundation
import Synchronization
import Testing
import _LinkKitLocking
@testable import UniversalLinkKit

/// The resolver's step hook, in order, without credentials.
struct ResolutionStepTests {
    final class Steps: Sendable {
        let list = Mutex<[ResolutionStep]>([])
        func add(_ step: ResolutionStep) { list.withTrackedLock { $0.append(step) } }
        var all: [ResolutionStep] { list.withTrackedLock { $0 } }
    }

    @Test func aRetryAndARedirectAreReportedInOrder() async throws {
        let answers = Mutex<[TransportResponse]>([
            TransportResponse(statusCode: 503),
            TransportResponse(statusCode: 302, headerFields: ["Location": "https://news.example.com/next"]),
            TransportResponse(statusCode: 200, body: Data(#"{"webLinkUrl":"https://www.example.com/p"}"#.utf8)),
        ])
        let transport = ClosureTransport { _, _ in answers.withTrackedLock { $0.removeFirst() } }
        let resolver = LinkResolver(
            configuration: .init(retryDelay: .milliseconds(1)), transport: transport)
        let steps = Steps()
        // Time is not what this test is about: a deadline a loaded machine cannot reach.
        let link = try await resolver.resolve(
            URL(string: "https://news.example.com/pub/acc?x=1")!,
            until: Deadline(start: .now, timeout: .seconds(3600)), onStep: { steps.add($0) })
        #expect(link.webLinkURL == URL(string: "https://www.example.com/p"))
        let kinds = steps.all.map { step -> String in
            switch step {
            case .requestSent(let attempt, _): "sent \(attempt)"
            case .answered(let attempt, let status, _, _, _): "answered \(attempt) \(status)"
            case .retrying: "retrying"
            case .redirected(let url): "redirected \(url.path())"
            case .requestFailed(let attempt, let kind): "failed \(attempt) \(kind)"
            }
        }
        #expect(kinds == [
            "sent 1", "answered 1 503", "retrying", "sent 2", "answered 2 302", "redirected /next", "sent 1",
            "answered 1 200",
        ])
    }

    @Test func aURLWithCredentialsIsRedactedEverywhere() {
        let url = URL(string: "https://user:s3cr3t@news.example.com/pub/acc?x=1")!
        #expect(url.redacted == URL(string: "https://news.example.com/pub/acc?x=1")!)
        // Messages also leave out the query, which identifies the recipient of a tracking link.
        #expect(url.redactedString == "https://news.example.com/pub/acc?…")
        #expect(URL(string: "https://news.example.com/pub/acc#f")!.redactedString == "https://news.example.com/pub/acc#…")
        #expect(URL(string: "https://news.example.com/a")!.redacted == URL(string: "https://news.example.com/a")!)
    }
}
