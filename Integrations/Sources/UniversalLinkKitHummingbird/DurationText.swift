/// Durations as operators read them in messages and log lines: `10 s`, `2.5 s`, `250 ms`, never `9.999969194 s`.
package enum DurationText {
    /// `duration` rounded: whole milliseconds under a second, otherwise seconds with at most one decimal (and none
    /// from 10 s up).
    ///
    /// - Parameter duration: The duration.
    /// - Returns: `"250 ms"`, `"1.5 s"`, `"10 s"`.
    package static func rounded(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = (Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded()
        if abs(milliseconds) < 1000 { return "\(Int(milliseconds)) ms" }
        let tenths = (milliseconds / 100).rounded()
        if abs(tenths) >= 100 || tenths.truncatingRemainder(dividingBy: 10) == 0 { return "\(Int((tenths / 10).rounded())) s" }
        return "\(Int(tenths) / 10).\(abs(Int(tenths) % 10)) s"
    }
}
