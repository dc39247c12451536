/// The one retry a resolution may spend, as a value: whether it is left, and the pause before it.
///
/// A request is sent again only when no answer arrived or the answer was 502, 503 or 504; only once per
/// resolution; only when the pause (the server's `Retry-After`, if it fits under the cap, else the configured
/// delay) leaves the retried request some time before the deadline.
struct RetryBudget: Sendable, Hashable {
    /// Whether the retry is still available.
    private(set) var isAvailable = true
    let delay: Duration
    let maxRetryAfter: Duration

    init(delay: Duration, maxRetryAfter: Duration) {
        self.delay = delay
        self.maxRetryAfter = maxRetryAfter
    }

    /// Whether a status is one the resolver retries.
    static func isRetryable(_ statusCode: Int) -> Bool {
        statusCode == 502 || statusCode == 503 || statusCode == 504
    }

    /// Spends the retry when it is available and fits.
    ///
    /// - Parameters:
    ///   - retryAfter: The answer's `Retry-After`, if any.
    ///   - now: The current instant.
    ///   - deadline: The resolution's deadline.
    /// - Returns: The pause before the retry, or `nil` (nothing spent) when there is none to spend, the server
    ///   asks for too long, or the retry would not fit before the deadline.
    mutating func spend(retryAfter: String?, now: ContinuousClock.Instant, deadline: ContinuousClock.Instant) -> Duration? {
        guard isAvailable else { return nil }
        var pause = delay
        if let retryAfter {
            guard let seconds = RetryAfter.seconds(retryAfter), seconds <= maxRetryAfter.seconds else { return nil }
            pause = .milliseconds(Int64(seconds * 1000))
        }
        // Leave the retried request some time of its own, or it would only turn into a timeout.
        guard now + pause + .milliseconds(50) < deadline else { return nil }
        isAvailable = false
        return pause
    }
}
