extension Duration {
    /// The duration as an operator reads it, rounded: `250 ms` under a second, `1.5 s` under ten seconds, `10 s`
    /// from there (a deadline measured as `9.999969194 s` is `10 s`).
    var roundedText: String {
        let (seconds, attoseconds) = components
        let total = Double(seconds) + Double(attoseconds) / 1e18
        if total < 0.9995 { return "\(max(0, Int((total * 1000).rounded()))) ms" }
        if total < 9.95 {
            let tenths = (total * 10).rounded() / 10
            return tenths == tenths.rounded() ? "\(Int(tenths)) s" : "\(tenths) s"
        }
        return "\(Int(total.rounded())) s"
    }
}
