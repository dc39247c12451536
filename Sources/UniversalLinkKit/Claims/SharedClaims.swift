import Foundation

/// The fleet step of a resolution: this process's winning activation of a click claims it in a ``ClaimStore``, and
/// resolves it only when no other process has it.
///
/// Invariant: it calls `resolve` at most once, and only while it holds a won claim, or when the store failed and the
/// policy is ``ClaimStoreFailurePolicy/resolveLocally``. It returns by the deadline as long as the store honours
/// cancellation; the manager's deadline action answers the callers at the deadline whatever the store does.
struct SharedClaims: Sendable {
    /// What the step gave: the link, whether it came from another process (a duplicate of its click), and whether
    /// this process should answer the click's duplicates with it for the window.
    struct Result {
        var link: ResolvedLink
        var isDuplicate: Bool
        /// `false` when no request was sent here and the answer says nothing of the click: the wait for another
        /// process's outcome ran out, or the store was unavailable under `reject`. A retry then asks the store
        /// again (which coordinates the fleet, so nothing is counted twice) instead of getting the same failure.
        var isRemembered = true
        /// The claim this process won: ``settle(_:flight:ticket:deadline:)`` it once its callers have their answer.
        var ticket: ClaimTicket?
    }

    let store: any ClaimStore
    let failure: ClaimStoreFailurePolicy
    let lease: Duration
    let clock: LinkClock
    let events: EventReporter

    /// Resolves `flight` once across the fleet.
    ///
    /// - Parameters:
    ///   - flight: This process's flight of the click.
    ///   - deadline: The resolution's deadline.
    ///   - resolve: Resolves the link here (sends the request).
    /// - Returns: The link, resolved here or by another process.
    func resolve(
        _ flight: Flight, deadline: Deadline, here resolve: () async -> ResolvedLink
    ) async -> Result {
        let url = flight.url
        while true {
            if Task.isCancelled || clock.now >= deadline.instant { return waitedOut(flight, deadline) }
            let claim: SharedClaim
            // Nothing is sent here until a claim is won (or the store fails under `resolveLocally`).
            flight.resolvesHere = false
            do {
                claim = try await store.claim(flight.identity, lease: lease)
            } catch {
                return await failed(error, flight, deadline: deadline, resolve: resolve)
            }
            switch claim {
            case let .settled(outcome):
                events.emit(.coalesced, url, reason: "resolved by another process")
                return Result(link: outcome.resolvedLink(for: url), isDuplicate: true)
            case let .won(ticket):
                flight.resolvesHere = true
                return Result(link: await resolve(), isDuplicate: false, ticket: ticket)
            case .heldElsewhere:
                let timeLeft = deadline.instant - clock.now
                guard timeLeft > .zero else { return waitedOut(flight, deadline) }
                do {
                    if let outcome = try await store.awaitOutcome(of: flight.identity, within: timeLeft) {
                        events.emit(.coalesced, url, reason: "resolved by another process")
                        return Result(link: outcome.resolvedLink(for: url), isDuplicate: true)
                    }
                    // The holder's lease ended with no outcome: claim again, and take the click over if it is free.
                } catch {
                    return await failed(error, flight, deadline: deadline, resolve: resolve)
                }
            }
        }
    }

    /// Publishes the outcome of a claim this process won, after its callers here have their answer (so they never
    /// wait on the store), on a task of its own: the resolving task may be cancelled by then (its deadline or a
    /// shutdown), and the store's own time limit bounds the call.
    ///
    /// - A shutdown cut the resolution short: the claim is released, so another process takes the click over at
    ///   once (its request may have been sent: the second of the two a click may cost).
    /// - The deadline cut it short (the resolver reports `cancelled`): the timeout its callers were given is
    ///   published, so the other processes answer it for the window instead of sending again.
    /// - Otherwise the outcome is published.
    func settle(_ link: ResolvedLink, flight: Flight, ticket: ClaimTicket, deadline: Deadline) {
        let (store, events) = (store, events)
        let shared: SharedOutcome? =
            if flight.isCancelledByShutdown { nil }
            else if link.error?.code == .cancelled { SharedOutcome(timedOut(flight, deadline)) }
            else { SharedOutcome(link) }
        Task {
            do {
                if let shared {
                    try await store.publish(shared, of: flight.identity, ticket: ticket)
                } else {
                    try await store.release(flight.identity, ticket: ticket)
                }
            } catch {
                // The callers here have their answer; the other processes' joiners take the click over after the
                // lease.
                events.emit(.claimStoreFailed, flight.url, reason: String(describing: error))
            }
        }
    }

    private func failed(
        _ error: any Error, _ flight: Flight, deadline: Deadline, resolve: () async -> ResolvedLink
    ) async -> Result {
        // Cancelled (the deadline passed, or shutdown): the callers have their answer; nothing may be sent now.
        if error is CancellationError || Task.isCancelled { return waitedOut(flight, deadline) }
        events.emit(.claimStoreFailed, flight.url, reason: String(describing: error))
        if failure == .reject {
            return Result(
                link: ResolvedLink(requestedURL: flight.url, isPubWeb: true, error: .claimStoreUnavailable(flight.url, error)),
                isDuplicate: false, isRemembered: false)
        }
        flight.resolvesHere = true
        return Result(link: await resolve(), isDuplicate: false)
    }

    /// The deadline passed before this process had an answer, and it sent nothing.
    private func waitedOut(_ flight: Flight, _ deadline: Deadline) -> Result {
        Result(link: timedOut(flight, deadline), isDuplicate: false, isRemembered: false)
    }

    private func timedOut(_ flight: Flight, _ deadline: Deadline) -> ResolvedLink {
        let error = LinkError.resolution(DeadlineExceeded(), url: flight.url, allowed: deadline.allowed, maxBodyBytes: 0)
        return ResolvedLink(requestedURL: flight.url, isPubWeb: true, error: error)
    }
}
