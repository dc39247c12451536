import Synchronization
internal import _LinkKitLocking

/// The addresses host names resolved to, kept for a while, so that the links of one campaign do not each pay for a
/// name lookup: ``CurlTransport`` resolves names itself (to check the addresses it connects to), so libcurl's own
/// cache, which keeps a name 60 seconds, is not used.
///
/// What is kept is the resolver's answer, not a verdict: every request checks the addresses again under its own
/// ``TransportRequest/allowsLocalAddresses``. Failed lookups, and answers that are not all addresses, are not kept
/// (``CheckedAddress`` stores an answer once it has parsed); names are kept by their ASCII bytes, lower-cased, and a
/// name with other characters is not kept at all. At most ``capacity`` names are kept; a new name beyond it first
/// drops the expired ones, then, if none had expired, every name (a burst of distinct names costs lookups, never
/// memory).
package final class NameCache: Sendable {
    /// How long an answer is used.
    let lifetime: Duration
    /// The most names kept.
    let capacity: Int
    private let entries = Mutex<[String: Entry]>([:])

    private struct Entry {
        var addresses: [String]
        var expires: ContinuousClock.Instant
    }

    /// - Parameters:
    ///   - lifetime: How long an answer is used; zero keeps nothing.
    ///   - capacity: The most names kept.
    init(lifetime: Duration, capacity: Int = 256) {
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
    }

    /// The addresses `host` resolved to, if they are still in date at `now`.
    func addresses(of host: String, at now: ContinuousClock.Instant) -> [String]? {
        guard lifetime > .zero else { return nil }
        return entries.withTrackedLock { entries in
            guard let entry = entries[host] else { return nil }
            guard now < entry.expires else {
                entries[host] = nil
                return nil
            }
            return entry.addresses
        }
    }

    /// Keeps what `host` resolved to at `now`.
    func store(_ addresses: [String], for host: String, at now: ContinuousClock.Instant) {
        guard lifetime > .zero, !addresses.isEmpty else { return }
        entries.withTrackedLock { entries in
            if entries[host] == nil, entries.count >= capacity {
                entries = entries.filter { now < $0.value.expires }
                if entries.count >= capacity { entries.removeAll() }
            }
            entries[host] = Entry(addresses: addresses, expires: now + lifetime)
        }
    }

    /// Names kept, expired or not.
    var count: Int { entries.withTrackedLock { $0.count } }
}
