/// The package's one human text for a duration, as an operator reads it in a message or a log line.
///
/// One rule: under 999.5 ms, whole milliseconds (`250 ms`, `0 ms`); under 9.95 s, seconds to one decimal, the
/// decimal dropped when it is zero (`1.5 s`, `2 s`); from there, whole seconds (`10 s`, `600 s`). Each unit
/// switches where rounding would otherwise write the next unit's first value in the old one (`1000 ms`, `10.0 s`),
/// so a deadline measured as `9.999969194 s` reads `10 s`. Negative durations read as `0 ms`.
package enum DurationText {
    /// The text of `duration`.
    package static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let total = Double(seconds) + Double(attoseconds) / 1e18
        if total < 0.9995 { return "\(Int((max(0, total) * 1000).rounded())) ms" }
        if total < 9.95 {
            let tenths = (total * 10).rounded()
            return tenths.truncatingRemainder(dividingBy: 10) == 0 ? "\(Int(tenths / 10)) s" : "\(tenths / 10) s"
        }
        let whole = total.rounded()
        // A Double that Int cannot hold (durations of 292 billion years) is written as the Double.
        return whole < 9.2e18 ? "\(Int(whole)) s" : "\(whole) s"
    }
}

extension Duration {
    /// The duration as an operator reads it: `250 ms`, `1.5 s`, `10 s` (see ``DurationText``).
    package var text: String { DurationText.text(self) }
}
