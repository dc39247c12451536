import Testing
@testable import UniversalLinkKitHummingbird

struct DurationTextTests {
    @Test(arguments: [
        (Duration.nanoseconds(9_999_969_194), "10 s"), (.milliseconds(250), "250 ms"), (.milliseconds(1500), "1.5 s"),
        (.seconds(10), "10 s"), (.milliseconds(999_600), "1000 s"), (.microseconds(400), "0 ms"), (.milliseconds(2049), "2 s"),
    ])
    func durationsAreRoundedForOperators(duration: Duration, text: String) {
        #expect(DurationText.rounded(duration) == text)
    }
}
