import Foundation
import Testing
@testable import UniversalLinkKit

/// `ResolvedLink` is a value: its copies share one box of values, and changing one copy never shows in another.
struct ResolvedLinkTests {
    static let requested = URL("https://news.example.com/pub/acc?_ri_=X")
    static let deep = URL("example-app://products/1234")
    static let web = URL("https://www.example.com/products/1234")

    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = ResolvedLink(
            requestedURL: Self.requested, deepLinkURL: Self.deep, webLinkURL: Self.web, isPubWeb: true)
        var copy = original
        copy.deepLinkURL = nil
        copy.error = .cancelledByShutdown(Self.requested)
        copy.isPubWeb = false
        copy.requestedURL = Self.web
        #expect(original.deepLinkURL == Self.deep)
        #expect(original.webLinkURL == Self.web)
        #expect(original.error == nil)
        #expect(original.isPubWeb)
        #expect(original.requestedURL == Self.requested)
        #expect(copy.deepLinkURL == nil)
        #expect(copy.webLinkURL == Self.web)
        #expect(copy.error?.code == .cancelled)
        #expect(!copy.isPubWeb)
        #expect(copy.requestedURL == Self.web)
        #expect(copy.destinationURL == Self.web)
    }

    @Test func equalValuesAreEqualAndHashAlikeWhicheverWayTheyWereMade() {
        let made = ResolvedLink(requestedURL: Self.requested, deepLinkURL: Self.deep, isPubWeb: true)
        var changed = ResolvedLink(
            requestedURL: Self.web, webLinkURL: Self.web, isPubWeb: false, error: .cancelledByShutdown(Self.web))
        changed.requestedURL = Self.requested
        changed.webLinkURL = nil
        changed.deepLinkURL = Self.deep
        changed.isPubWeb = true
        changed.error = nil
        #expect(changed == made)
        #expect(changed.hashValue == made.hashValue)
        #expect(Set([made, changed, made]).count == 1)
        var other = made
        other.error = .cancelledByShutdown(Self.requested)
        #expect(other != made)
        #expect(Set([made, other]).count == 2)
    }
}
