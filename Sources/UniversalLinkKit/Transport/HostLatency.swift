import Synchronization
internal import _LinkKitLocking
internal import _LinkKitText

/// How long answers from each host currently take, so that ``CurlTransport`` starts no request whose caller
/// would be answered (with a timeout) before the server is: the click would be counted for nobody.
///
/// The figure is the 90th percentile of the host's recent answers (at most the last 32, none older than 30 s),
/// each measured from the moment the request started (a stream slot taken, so queueing is not counted) to its
/// last byte, on the transport's clock. Only answered requests count: a timeout says nothing about how long the
/// server takes. A host without recent answers has no figure and every request may start, so a host that was
/// slow once is tried again half a minute later. At most 256 hosts are kept, the least recently answered dropped
/// first.
final class HostLatency: Sendable {
    /// The most recent answers kept per host.
    static let window = 32
    /// How long an answer counts.
    static let lifetime = Duration.seconds(30)
    /// The most hosts kept.
    static let maximumHosts = 256

    private struct Samples {
        /// When each answer ended, and how long it took, oldest first.
        var entries: [(at: ContinuousClock.Instant, took: Duration)] = []
        var lastAt: ContinuousClock.Instant
    }

    private let hosts = Mutex<[String: Samples]>([:])

    /// Records an answer from `host` that took `took`, ending at `at`.
    func record(_ took: Duration, host: String, at: ContinuousClock.Instant) {
        hosts.withTrackedLock { hosts in
            if hosts[host] == nil, hosts.count >= Self.maximumHosts,
               let oldest = hosts.min(by: { $0.value.lastAt < $1.value.lastAt })?.key {
                hosts[oldest] = nil
            }
            var samples = hosts[host] ?? Samples(lastAt: at)
            samples.entries.append((at, took))
            if samples.entries.count > Self.window { samples.entries.removeFirst(samples.entries.count - Self.window) }
            samples.lastAt = at
            hosts[host] = samples
        }
    }

    /// What answers from `host` currently take (the 90th percentile of its recent answers), or `nil` when none is
    /// recent.
    func expected(for host: String, at now: ContinuousClock.Instant) -> Duration? {
        let recent = hosts.withTrackedLock { hosts -> [Duration] in
            guard let samples = hosts[host] else { return [] }
            return samples.entries.filter { now - $0.at < Self.lifetime }.map(\.took)
        }
        guard !recent.isEmpty else { return nil }
        let sorted = recent.sorted()
        // The nearest-rank percentile: with one answer, that answer; with ten, the ninth.
        let rank = (sorted.count * 9 + 9) / 10
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }

    /// Why a request with `left` before its deadline must not start, or `nil` when it may.
    func refusal(host: String, left: Duration, at now: ContinuousClock.Instant) -> String? {
        guard let expected = expected(for: host, at: now), left < expected else { return nil }
        return "not sent: answers from \(host) currently take \(expected.text) (90th percentile of its recent answers),"
            + " more than the \(max(left, .zero).text) left before the deadline"
    }
}
