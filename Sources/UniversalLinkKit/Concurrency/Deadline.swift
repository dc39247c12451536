/// One resolution's deadline: an absolute instant computed once, where the caller's time limit enters the package,
/// and the time it allowed (for messages). It travels as an argument; nothing downstream recomputes it.
package struct Deadline: Sendable, Hashable {
    /// When the work ends at the latest.
    package let instant: ContinuousClock.Instant
    /// How long it allowed from its start.
    package let allowed: Duration

    /// The deadline of work started at `start`: `timeout` later, or earlier at `limit` when given.
    ///
    /// - Parameters:
    ///   - start: When the work started.
    ///   - timeout: The configured time limit.
    ///   - limit: An earlier instant of the caller's, if any.
    package init(start: ContinuousClock.Instant, timeout: Duration, limit: ContinuousClock.Instant? = nil) {
        var instant = start + timeout
        if let limit, limit < instant { instant = limit }
        self.instant = instant
        self.allowed = instant - start
    }
}
