import Testing
@testable import LinkRouting

struct PlaceholderTests {
    @Test func moduleLinks() { #expect(Bool(true)) }
}
