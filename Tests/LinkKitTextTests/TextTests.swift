import Testing
@testable import _LinkKitText

/// Durations as people read them, UTF-8 validation and markup escaping.
struct TextTests {
    @Test(arguments: [
        (Duration.milliseconds(250), "250 ms"), (.microseconds(400), "0 ms"), (.milliseconds(-5), "0 ms"),
        (.microseconds(999_400), "999 ms"), (.microseconds(999_600), "1 s"), (.milliseconds(1_500), "1.5 s"),
        (.milliseconds(2_049), "2 s"), (.milliseconds(9_940), "9.9 s"), (.milliseconds(9_999), "10 s"),
        (.nanoseconds(9_999_969_194), "10 s"), (.seconds(10), "10 s"), (.milliseconds(12_500), "13 s"),
        (.seconds(600), "600 s"), (.milliseconds(999_600), "1000 s"),
    ])
    func aDurationReadsInTheUnitItRoundsTo(_ duration: Duration, _ text: String) {
        #expect(DurationText.text(duration) == text)
        #expect(duration.text == text)
    }

    @Test(arguments: [
        ([0x61, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80], nil), ([0xC3, 0x28], 1), ([0xFF], 0), ([0xC0, 0x80], 0),
        ([0xED, 0xA0, 0x80], 1), ([0xF4, 0x90, 0x80, 0x80], 1), ([0x61, 0xE2, 0x82], 3), ([0xE0, 0x80, 0x80], 1),
    ] as [([UInt8], Int?)])
    func theValidatorNamesTheFirstByteThatIsNotUTF8(_ bytes: [UInt8], _ offset: Int?) {
        #expect(UTF8Validation.firstInvalidByte(in: bytes) == offset)
    }

    @Test func markupEscapingKeepsTextInsideItsElementOrAttribute() {
        #expect(MarkupEscaping.escaped(#"<a href="x" title='y'>&</a>"#)
            == "&lt;a href=&quot;x&quot; title='y'&gt;&amp;&lt;/a&gt;")
        #expect(MarkupEscaping.escaped("a\nb\r\tc\u{1B}[2J\u{7F}\u{FFFE}é") == "a&#10;b&#13;\tc[U+001B][2J[U+007F][U+FFFE]é")
    }
}
