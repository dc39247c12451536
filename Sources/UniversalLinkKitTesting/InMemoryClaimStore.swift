import Foundation
import Synchronization
internal import _LinkKitLocking
import UniversalLinkKit

/// A `ClaimStore` in memory, shared by the managers of one process: a fleet of replicas inside one test.
///
/// Give two managers the same store and they coalesce a click as two replicas on a shared PostgreSQL store do:
///
/// ```swift
/// // snippet: skip
/// let store = InMemoryClaimStore()
/// var configuration = LinkManager.Configuration()
/// configuration.claimStore = store
/// let replicaA = LinkManager(configuration: configuration, transport: transport)
/// let replicaB = LinkManager(configuration: configuration, transport: transport)
/// async let a = replicaA.resolve(url)
/// async let b = replicaB.resolve(url)
/// _ = try await (a, b)  // one request, the same answer; one of the two is a duplicate
/// ```
///
/// Leases and the duplicate window follow the injected clock. ``isFailing`` makes every call throw, as an
/// unreachable database does.
package final class InMemoryClaimStore: ClaimStore {
    /// The error of a failing store.
    package struct Unavailable: Error, CustomStringConvertible {
        /// `"the in-memory claim store is failing"`.
        package var description: String { "the in-memory claim store is failing" }
    }

    private struct Row {
        var token: Int
        var leaseEnds: ContinuousClock.Instant
        var outcome: SharedOutcome?
        var expires: ContinuousClock.Instant?
        var waiters: [Waiter<SharedOutcome?>] = []
    }

    private struct State {
        var rows: [String: Row] = [:]
        var nextToken = 0
        var failing = false
        var won = 0
        var takenOver = 0
        var joined = 0
    }

    private let state = Mutex(State())
    private let window: Duration
    private let clock: LinkClock

    /// Creates an empty store.
    ///
    /// - Parameters:
    ///   - window: How long a published outcome answers later claims of its click. Default 2 s, as
    ///     `LinkManager.Configuration.duplicateWindow`.
    ///   - clock: The clock of leases and the window. Default the system's.
    package convenience init(window: Duration = .seconds(2), clock: any Clock<Duration> = ContinuousClock()) {
        self.init(window: window, clock: LinkClock(clock))
    }

    /// A store on a wrapped clock, shared with the managers of a test.
    package init(window: Duration = .seconds(2), clock: LinkClock) {
        self.window = window
        self.clock = clock
    }

    /// Whether every call throws `Unavailable`, as an unreachable database.
    package var isFailing: Bool {
        get { state.withTrackedLock { $0.failing } }
        set { state.withTrackedLock { $0.failing = newValue } }
    }

    /// Claims won, takeovers included.
    package var wonCount: Int { state.withTrackedLock { $0.won } }
    /// Claims won from a holder whose lease had ended with no outcome.
    package var takeoverCount: Int { state.withTrackedLock { $0.takenOver } }
    /// Claims that found the click held elsewhere or settled.
    package var joinedCount: Int { state.withTrackedLock { $0.joined } }
    /// Clicks remembered (held or within their window).
    package var count: Int { state.withTrackedLock { $0.rows.count } }

    package func claim(_ click: ClickIdentity, lease: Duration) async throws -> SharedClaim {
        let now = clock.now
        return try state.withTrackedLock { state in
            guard !state.failing else { throw Unavailable() }
            if var row = state.rows[click.key] {
                if let outcome = row.outcome, let expires = row.expires, expires > now {
                    state.joined += 1
                    return .settled(outcome)
                }
                if row.outcome == nil, row.leaseEnds > now {
                    state.joined += 1
                    return .heldElsewhere
                }
                let isTakeover = row.outcome == nil
                state.nextToken += 1
                row = Row(token: state.nextToken, leaseEnds: now + lease, waiters: row.outcome == nil ? row.waiters : [])
                state.rows[click.key] = row
                state.won += 1
                if isTakeover { state.takenOver += 1 }
                return .won(ClaimTicket(token: String(row.token), isTakeover: isTakeover))
            }
            state.nextToken += 1
            state.rows[click.key] = Row(token: state.nextToken, leaseEnds: now + lease)
            state.won += 1
            return .won(ClaimTicket(token: String(state.nextToken)))
        }
    }

    package func publish(_ outcome: SharedOutcome, of click: ClickIdentity, ticket: ClaimTicket) async throws {
        // As a database client does: a cancelled caller's statement is not sent.
        try Task.checkCancellation()
        let expires = clock.now + window
        let waiters = try state.withTrackedLock { state -> [Waiter<SharedOutcome?>] in
            guard !state.failing else { throw Unavailable() }
            guard var row = state.rows[click.key], String(row.token) == ticket.token, row.outcome == nil else { return [] }
            row.outcome = outcome
            row.expires = expires
            let waiters = row.waiters
            row.waiters = []
            state.rows[click.key] = row
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    package func release(_ click: ClickIdentity, ticket: ClaimTicket) async throws {
        try Task.checkCancellation()
        let waiters = try state.withTrackedLock { state -> [Waiter<SharedOutcome?>] in
            guard !state.failing else { throw Unavailable() }
            guard let row = state.rows[click.key], String(row.token) == ticket.token, row.outcome == nil else { return [] }
            state.rows[click.key] = nil
            return row.waiters
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    package func awaitOutcome(of click: ClickIdentity, within timeLeft: Duration) async throws -> SharedOutcome? {
        let now = clock.now
        let waiter = Waiter<SharedOutcome?>()
        let until = try state.withTrackedLock { state -> ContinuousClock.Instant? in
            guard !state.failing else { throw Unavailable() }
            guard var row = state.rows[click.key] else {
                waiter.resume(returning: nil)
                return nil
            }
            if let outcome = row.outcome {
                waiter.resume(returning: outcome)
                return nil
            }
            row.waiters.append(waiter)
            state.rows[click.key] = row
            return min(row.leaseEnds, now + timeLeft)
        }
        switch await waiter.wait(until: until, clock: clock) {
        case let .value(outcome): return outcome
        case .deadline: return nil
        case .cancelled: throw CancellationError()
        }
    }
}
