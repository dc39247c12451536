/// One line of the results: a subject's cost on one case of one group.
struct Measurement: Sendable {
    var group: String
    var caseName: String
    var size: Int
    var subject: String
    /// Median of the timed batches, in nanoseconds per operation.
    var nsPerOp: Double
    /// Interquartile range of the batches divided by their median (0.05 = the middle half lies within 5 %).
    var spread: Double
    /// This subject's time over ours, as the median of per-round ratios when the subjects were interleaved;
    /// `nil` to let the table divide the medians.
    var ratio: Double? = nil
    /// Which input file or setting, where a case has more than one (the AASA fixtures).
    var variant: String? = nil
    /// Extra figures some groups report (requests per second, latency percentiles), in the order given.
    var extras: [(name: String, value: Double)] = []

    /// The JSON object of `--json`: one per measurement, one per line.
    var json: String {
        var fields = [
            "\"group\": \(Self.quoted(group))",
            "\"case\": \(Self.quoted(caseName))",
            "\"size\": \(size)",
            "\"subject\": \(Self.quoted(subject))",
            "\"ns_per_op\": \(Self.number(nsPerOp))",
            "\"spread\": \(Self.number(spread, digits: 3))",
        ]
        if let ratio { fields.append("\"ratio\": \(Self.number(ratio, digits: 2))") }
        if let variant { fields.append("\"variant\": \(Self.quoted(variant))") }
        for (name, value) in extras { fields.append("\(Self.quoted(name)): \(Self.number(value))") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }

    static func number(_ value: Double, digits: Int = 1) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }
}
