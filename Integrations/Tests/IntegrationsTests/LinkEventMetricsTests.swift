import Foundation
import MetricsTestKit
import Testing
import UniversalLinkKit
import UniversalLinkKitMetrics

struct LinkEventMetricsTests {
    static let url = URL(string: "https://news.example.com/pub/acc?_ri_=1")!

    @Test func eachFinishedLinkIsCountedByOutcome() throws {
        let metrics = TestMetrics()
        let handler = LinkEventHandler.metrics(factory: metrics)
        handler(LinkEvent(.resolved, url: Self.url, duration: .milliseconds(40)))
        handler(LinkEvent(.resolved, url: Self.url, duration: .milliseconds(60)))
        handler(LinkEvent(.failed, url: Self.url, duration: .seconds(2), errorCode: .timeout))
        handler(LinkEvent(.refused, url: Self.url, errorCode: .hostNotAllowed))

        #expect(try metrics.expectCounter("ulk_links_total", [("outcome", "resolved")]).totalValue == 2)
        #expect(try metrics.expectCounter("ulk_links_total", [("outcome", "timeout")]).totalValue == 1)
        #expect(try metrics.expectCounter("ulk_links_total", [("outcome", "hostNotAllowed")]).totalValue == 1)
        let timer = try metrics.expectTimer("ulk_resolution_duration_seconds")
        #expect(timer.values == [40_000_000, 60_000_000, 2_000_000_000])
    }

    @Test func answersRetriesAndDuplicatesAreCounted() throws {
        let metrics = TestMetrics()
        let handler = LinkEventMetrics(factory: metrics).handler
        handler(LinkEvent(.requestSent, url: Self.url, attempt: 1))
        handler(LinkEvent(.answered, url: Self.url, attempt: 1, statusCode: 503, bytes: 0, duration: .milliseconds(5)))
        handler(LinkEvent(.retrying, url: Self.url, attempt: 1, duration: .milliseconds(250), reason: "503"))
        handler(LinkEvent(
            .answered, url: Self.url, attempt: 2, statusCode: 200, bytes: 80, duration: .milliseconds(5),
            connectionWait: .milliseconds(3)))
        handler(LinkEvent(.coalesced, url: Self.url))
        handler(LinkEvent(.coalesced, url: Self.url))

        #expect(try metrics.expectCounter("ulk_requests_total", [("status", "503")]).totalValue == 1)
        #expect(try metrics.expectCounter("ulk_requests_total", [("status", "200")]).totalValue == 1)
        #expect(try metrics.expectCounter("ulk_retries_total").totalValue == 1)
        #expect(try metrics.expectCounter("ulk_coalesced_total").totalValue == 2)
        // Only the answer that measured its wait for a connection slot records one.
        #expect(try metrics.expectTimer("ulk_connection_wait_seconds").values == [3_000_000])
        #expect(throws: (any Error).self) { try metrics.expectCounter("ulk_links_total", [("outcome", "resolved")]) }
    }

    @Test func aLinkAnsweredWithAnotherReplicasOutcomeCountsJoinedAndADuplicate() throws {
        let metrics = TestMetrics()
        let handler = LinkEventMetrics(factory: metrics).handler
        let other = URL(string: "https://news.example.com/pub/acc?_ri_=2")!
        handler(LinkEvent(.joined, url: Self.url))
        handler(LinkEvent(.resolved, url: Self.url, duration: .milliseconds(7)))
        handler(LinkEvent(.coalesced, url: other))
        handler(LinkEvent(.resolved, url: other, duration: .milliseconds(9)))

        #expect(try metrics.expectCounter("ulk_links_total", [("outcome", "joined")]).totalValue == 1)
        #expect(try metrics.expectCounter("ulk_links_total", [("outcome", "resolved")]).totalValue == 1)
        #expect(try metrics.expectCounter("ulk_coalesced_total").totalValue == 2)
    }

    @Test func theCountersWithoutDimensionsExistBeforeAnyEvent() throws {
        let metrics = TestMetrics()
        _ = LinkEventMetrics(factory: metrics)
        #expect(try metrics.expectCounter("ulk_retries_total").totalValue == 0)
        #expect(try metrics.expectCounter("ulk_coalesced_total").totalValue == 0)
    }
}
