/// The Markdown table printed without `--json`.
///
/// `x UniversalLinkKit` is the subject's time divided by ours for the same group, case, size and variant, from the
/// same run: 5.0 means the peer takes five times as long.
enum Table {
    static func render(_ results: [Measurement]) -> String {
        var lines = [
            "| group | case | size | subject | ns/op | spread | x UniversalLinkKit | notes |",
            "|---|---|---:|---|---:|---:|---:|---|",
        ]
        for result in results {
            let ours = results.first {
                $0.group == result.group && $0.caseName == result.caseName && $0.size == result.size
                    && $0.variant == result.variant && $0.subject == "UniversalLinkKit"
            }
            let ratio = result.ratio.map { result.subject == "UniversalLinkKit" ? "1" : format2($0) } ?? ours.map { result.subject == "UniversalLinkKit" ? "1" : String(format2(result.nsPerOp / $0.nsPerOp)) } ?? ""
            var notes: [String] = []
            if let variant = result.variant { notes.append(variant) }
            for (name, value) in result.extras { notes.append("\(name) \(Measurement.number(value))") }
            lines.append(
                "| \(result.group) | \(result.caseName) | \(result.size) | \(result.subject) | \(Measurement.number(result.nsPerOp)) | \(Measurement.number(result.spread * 100))% | \(ratio) | \(notes.joined(separator: ", ")) |")
        }
        return lines.joined(separator: "\n")
    }

    private static func format2(_ value: Double) -> String {
        value >= 10 ? Measurement.number(value, digits: 0) : Measurement.number(value, digits: 2)
    }
}
