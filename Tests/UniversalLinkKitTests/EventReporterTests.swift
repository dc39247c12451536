import Foundation
import Testing
@testable import UniversalLinkKit

/// Events worded once; nothing built without a handler.
struct EventReporterTests {
    static let link = URL("https://user:pw@news.example.com/pub/acc?_ri_=X")

    @Test func withoutAHandlerTheResolverGetsNoStepHook() {
        #expect(EventReporter(handler: nil).steps(of: Self.link) == nil)
    }

    @Test func aLinkThatKeptADestinationIsResolvedEvenWithAnError() {
        let log = EventLog()
        let reporter = EventReporter(handler: log.handler)
        let dropped = LinkError(code: .unsafeLink, message: "dropped one")
        reporter.finished(ResolvedLink(requestedURL: Self.link, webLinkURL: URL("https://www.example.com/"), isPubWeb: true, error: dropped), duration: .seconds(1))
        reporter.finished(ResolvedLink(requestedURL: Self.link, isPubWeb: true, error: LinkError(code: .timeout, message: "late")), duration: .seconds(2))
        #expect(log.kinds == [.resolved, .failed])
        #expect(log.all.last?.errorCode == .timeout)
        // No event carries the credentials of the link.
        #expect(log.all.allSatisfy { $0.url.user == nil && $0.url.password == nil })
    }

    @Test func stepsBecomeEventsAndAFailedRequestShowsAsWhatFollows() throws {
        let log = EventLog()
        let steps = try #require(EventReporter(handler: log.handler).steps(of: Self.link))
        steps(.requestSent(attempt: 1, url: Self.link.redacted))
        steps(.requestFailed(attempt: 1, kind: .noAnswer))
        steps(.retrying(reason: "no answer", after: .milliseconds(200)))
        steps(.answered(attempt: 2, statusCode: 302, bytes: 0, duration: .milliseconds(5)))
        steps(.redirected(to: URL("https://news.example.com/next")))
        #expect(log.kinds == [.requestSent, .retrying, .answered, .redirected])
        #expect(log.all[0].target == nil)  // the link itself is not repeated as the target
        #expect(log.all[1].attempt == 2)
        #expect(log.all[3].target == URL("https://news.example.com/next"))
    }

    @Test func anOutcomeReportsWhereTheLinkWent() {
        let log = EventLog()
        EventReporter(handler: log.handler).report(LinkOutcome(openedURL: URL("https://www.example.com/")), url: Self.link)
        #expect(log.kinds == [.opened])
    }
}
