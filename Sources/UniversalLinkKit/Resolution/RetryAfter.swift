import Foundation

/// Reads an HTTP `Retry-After` value: delay seconds, or an HTTP-date.
enum RetryAfter {
    /// The wait in seconds (never negative), or `nil` when the value is neither form.
    static func seconds(_ value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            let digits = trimmed.drop { $0 == "0" }
            // More than nine significant digits is years: far past any deadline, and past Double's exact range.
            return digits.count > 9 ? .infinity : Double(digits.isEmpty ? "0" : String(digits))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
