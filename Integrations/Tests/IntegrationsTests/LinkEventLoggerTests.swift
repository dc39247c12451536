import Foundation
import InMemoryLogging
import Logging
import Testing
import UniversalLinkKit
import UniversalLinkKitLogging

struct LinkEventLoggerTests {
    static let url = URL(string: "https://news.example.com/pub/acc?_ri_=1")!

    static let normalPath: [LinkEvent.Kind] = [.received, .requestSent, .answered, .redirected, .delivered, .held]
    static let decisions: [LinkEvent.Kind] = [.coalesced, .refused, .retrying, .resolved, .failed, .routed, .opened]

    private func capture(level: Logger.Level, _ body: (LinkEventHandler) -> Void) -> [InMemoryLogHandler.Entry] {
        var handler = InMemoryLogHandler()
        handler.logLevel = level
        let captured = handler
        body(.logging(to: Logger(label: "test", factory: { _ in captured })))
        return handler.entries
    }

    @Test(arguments: normalPath)
    func normalStepsAreLoggedAtTrace(kind: LinkEvent.Kind) {
        let entries = capture(level: .trace) { $0(LinkEvent(kind, url: Self.url)) }
        #expect(entries.map(\.level) == [.trace])
    }

    @Test(arguments: decisions)
    func decisionsAndResultsAreLoggedAtDebug(kind: LinkEvent.Kind) {
        let entries = capture(level: .trace) { $0(LinkEvent(kind, url: Self.url, errorCode: .timeout)) }
        #expect(entries.map(\.level) == [.debug])
    }

    @Test func aFailureTheCallerReceivesIsNotLoggedAtInfo() {
        let entries = capture(level: .info) { handler in
            handler(LinkEvent(.failed, url: Self.url, duration: .seconds(10), errorCode: .timeout))
            handler(LinkEvent(.refused, url: Self.url, errorCode: .hostNotAllowed, reason: "host not allowed"))
            handler(LinkEvent(.retrying, url: Self.url, attempt: 1, duration: .milliseconds(250), reason: "503"))
        }
        #expect(entries.isEmpty)
    }

    @Test func anAnswerCarriesItsFieldsAsMetadata() throws {
        let entries = capture(level: .trace) { handler in
            handler(LinkEvent(.answered, url: Self.url, attempt: 2, statusCode: 200, bytes: 87, duration: .milliseconds(12)))
        }
        let entry = try #require(entries.first)
        #expect(entry.message.description == "link answered")
        #expect(entry.metadata["link.event"] == "answered")
        // The query identifies the recipient: logged only on request (`logsFullURLs`).
        #expect(entry.metadata["link.url"] == "https://news.example.com/pub/acc?…")
        #expect(entry.metadata["link.attempt"] == "2")
        #expect(entry.metadata["link.status"] == "200")
        #expect(entry.metadata["link.bytes"] == "87")
        #expect(entry.metadata["link.duration"] == "0.012000")
        #expect(entry.metadata["link.error"] == nil)
    }

    @Test func aFailureCarriesItsCodeAndARouteItsTarget() throws {
        let entries = capture(level: .trace) { handler in
            handler(LinkEvent(.failed, url: Self.url, duration: .seconds(1), errorCode: .httpStatus))
            handler(LinkEvent(.routed, url: Self.url, reason: "/products/:id", target: URL(string: "app://products/1")!))
        }
        #expect(entries.count == 2)
        #expect(entries.first?.metadata["link.error"] == "httpStatus")
        #expect(entries.first?.metadata["link.duration"] == "1.000000")
        #expect(entries.last?.metadata["link.target"] == "app://products/1")
        #expect(entries.last?.metadata["link.reason"] == "/products/:id")
    }

    @Test func credentialsNeverReachTheLog() throws {
        let entries = capture(level: .trace) { handler in
            handler(LinkEvent(.received, url: URL(string: "https://user:secret@news.example.com/pub/acc?_ri_=1")!))
        }
        let url = try #require(entries.first?.metadata["link.url"]).description
        #expect(!url.contains("secret"))
        #expect(!url.contains("user"))
    }

    @Test func fullURLsKeepTheQueryOnlyWhenAskedAndNeverTheCredentials() throws {
        let url = URL(string: "https://user:secret@news.example.com/pub/acc?_ri_=1#top")!
        let redacted = LinkEventLogger.metadata(of: LinkEvent(.received, url: url))
        #expect(redacted["link.url"] == "https://news.example.com/pub/acc?…#…")
        let full = LinkEventLogger.metadata(of: LinkEvent(.received, url: url), fullURLs: true)
        #expect(full["link.url"] == "https://news.example.com/pub/acc?_ri_=1#top")
    }
}
