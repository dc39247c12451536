import Testing
@testable import UniversalLinkKit

struct PlaceholderTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}
