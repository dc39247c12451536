import Testing
@testable import UniversalLinkKitTesting

struct PlaceholderTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}
