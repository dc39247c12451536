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

        /// Adds an answer, dropping the oldest past ``HostLatency/window``.
        mutating func add(_ answer: (at: ContinuousClock.Instant, took: Duration)) {
            if entries.count == HostLatency.window { entries.removeFirst() }
            entries.append(answer)
            lastAt = answer.at
        }
    }

    private let hosts = Mutex<[String: Samples]>([:])

    /// Records an answer from `host` that took `took`, ending at `at`.
    func record(_ took: Duration, host: String, at: ContinuousClock.Instant) {
        hosts.withTrackedLock { hosts in
            if hosts[host] == nil, hosts.count >= Self.maximumHosts,
               let oldest = hosts.min(by: { $0.value.lastAt < $1.value.lastAt })?.key {
                hosts[oldest] = nil
            }
            // In place: a copy of the samples would copy their array for every answer.
            hosts[host, default: Samples(lastAt: at)].add((at, took))
        }
    }

    /// Why a request with `left` before its deadline must not start, or `nil` when it may.
    func refusal(host: String, left: Duration, at now: ContinuousClock.Instant) -> String? {
        // The percentile is over `left` exactly when fewer of the recent answers than its rank took at most `left`:
        // counted for every request, sorted only to word a refusal.
        let (recent, within) = hosts.withTrackedLock { hosts -> (Int, Int) in
            var (recent, within) = (0, 0)
            for entry in hosts[host]?.entries ?? [] where now - entry.at < Self.lifetime {
                recent += 1
                if entry.took <= left { within += 1 }
            }
            return (recent, within)
        }
        guard recent > 0, within < Self.rank(of: recent), let expected = expected(for: host, at: now) else { return nil }
        return "not sent: answers from \(host) currently take \(expected.text) (90th percentile of its recent answers),"
            + " more than the \(max(left, .zero).text) left before the deadline"
    }

    /// What answers from `host` currently take (the 90th percentile of its recent answers), or `nil` when none is
    /// recent.
    private func expected(for host: String, at now: ContinuousClock.Instant) -> Duration? {
        let recent = hosts.withTrackedLock { hosts -> [Duration] in
            (hosts[host]?.entries ?? []).filter { now - $0.at < Self.lifetime }.map(\.took)
        }
        guard !recent.isEmpty else { return nil }
        return recent.sorted()[Self.rank(of: recent.count) - 1]
    }

    /// The nearest rank of the 90th percentile among `count` answers: with one answer, that answer; with ten, the
    /// ninth.
    private static func rank(of count: Int) -> Int {
        max(1, min(count, (count * 9 + 9) / 10))
    }
}
