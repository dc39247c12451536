import Testing
@testable import LinkRouting

struct OptionalGroupExpanderTests {
    @Test func everyOrderedCombinationIsGeneratedLongestFirst() {
        #expect(OptionalGroupExpander.expand("/path/:thing(/a)(/b)(/c)") == [
            "/path/:thing/a/b/c", "/path/:thing/a/b", "/path/:thing/a/c", "/path/:thing/b/c",
            "/path/:thing/a", "/path/:thing/b", "/path/:thing/c", "/path/:thing",
        ])
    }

    @Test func requiredPartsAfterAGroupAreKept() {
        #expect(OptionalGroupExpander.expand("/a(/b)/c") == ["/a/b/c", "/a/c"])
    }

    @Test func aPatternWithoutGroupsIsNotExpanded() {
        #expect(OptionalGroupExpander.expand("/a/b").isEmpty)
    }

    @Test func aLeadingGroupAlsoYieldsTheRoot() {
        #expect(OptionalGroupExpander.expand("(/a)") == ["/a", "/"])
    }
}
