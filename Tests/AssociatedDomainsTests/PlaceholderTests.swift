import Testing
@testable import AssociatedDomains

struct PlaceholderTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}
