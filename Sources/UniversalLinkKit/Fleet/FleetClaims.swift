import Foundation

/// The fleet step of a resolution: the activation of a click that started this process's flight claims the click in
/// the ``ClaimStore``, and resolves it only when no other process has it. Its answer goes back to the coalescing
/// part as a value (``Result``).
///
/// Invariant: it calls `resolve` at most once, and only while it holds a won claim, or when the store failed and the
/// policy is ``ClaimStoreFailurePolicy/resolveLocally``. Every store call is bounded by the resolution's deadline
/// (and ends at once on cancellation) through the package's one deadline mechanism, whatever the store does.
struct FleetClaims: Sendable {
    /// What the step gave.
    struct Result {
        /// The link, resolved here or by another process.
        var link: ResolvedLink
        /// Whether another process resolved the click (this activation is a duplicate of it).
        var isDuplicate = false
        /// Whether this process answers the click's duplicates with the link for the window: `false` when no
        /// request was sent here and the answer says nothing of the click (the wait for another process's outcome
        /// ran out, or the store failed under `reject`), so a retry asks the store again instead of getting the
        /// same failure.
        var isRemembered = true
        /// The claim this process won: ``settle(_:of:ticket:)`` it once the callers here have their answer.
        var ticket: ClaimTicket?
    }

    let store: any ClaimStore
    let failure: ClaimStoreFailurePolicy
    /// How long a claim holds when its holder publishes nothing: a little longer than a resolution may take.
    let lease: Duration
    let clock: LinkClock
    let events: EventReporter

    /// Resolves the click once across the fleet.
    ///
    /// - Parameters:
    ///   - resolution: This process's prepared resolution of the click.
    ///   - resolve: Resolves the link here (sends the request).
    /// - Returns: The link and how this process treats it.
    func resolve(_ resolution: LinkResolver.Resolution, here resolve: () async -> ResolvedLink) async -> Result {
        let (url, click, deadline) = (resolution.url, resolution.identity, resolution.deadline)
        let store = store
        while true {
            let claim: SharedClaim
            do {
                // Nothing is sent here until a claim is won (or the store fails under `resolveLocally`).
                claim = try await withDeadline(deadline.instant, clock: clock) { [lease] in
                    try await store.claim(click, lease: lease)
                }
            } catch {
                return await failed(error, resolution, resolve: resolve)
            }
            switch claim {
            case let .settled(outcome):
                events.emit(.joined, url)
                return Result(link: outcome.resolvedLink(for: url), isDuplicate: true)
            case let .won(ticket):
                return Result(link: await resolve(), ticket: ticket)
            case .heldElsewhere:
                let outcome: SharedOutcome?
                do {
                    let timeLeft = deadline.instant - clock.now
                    outcome = try await withDeadline(deadline.instant, clock: clock) {
                        try await store.awaitOutcome(of: click, within: timeLeft)
                    }
                } catch {
                    return await failed(error, resolution, resolve: resolve)
                }
                if let outcome {
                    events.emit(.joined, url)
                    return Result(link: outcome.resolvedLink(for: url), isDuplicate: true)
                }
                // The holder's lease ended with no outcome: claim again, and take the click over if it is free.
            }
        }
    }

    /// Publishes the outcome of a claim this process won, on a task of its own, after the callers here have their
    /// answer (so they never wait on the store). A resolution cut short by the manager's shutdown (`cancelled`)
    /// releases the claim instead, so another process takes the click over at once (its request may have been
    /// sent: the second of the two a click may cost).
    func settle(_ link: ResolvedLink, of click: ClickIdentity, ticket: ClaimTicket) {
        let (store, events) = (store, events)
        Task {
            do {
                if link.error?.code == .cancelled {
                    try await store.release(click, ticket: ticket)
                } else {
                    try await store.publish(SharedOutcome(link), of: click, ticket: ticket)
                }
            } catch {
                // The callers here have their answer; the other processes' joiners take over after the lease.
                events.emit(.claimStoreFailed, link.requestedURL, reason: String(describing: error))
            }
        }
    }

    private func failed(
        _ error: any Error, _ resolution: LinkResolver.Resolution, resolve: () async -> ResolvedLink
    ) async -> Result {
        let url = resolution.url
        // The deadline passed or the manager is shutting down: nothing may be sent now. Only a cancelled task of
        // this resolution is `cancelled`: a store's own wait that ran out of time left ends with a
        // `CancellationError` too, and may end a moment before the deadline's entry runs.
        if error is DeadlineExceeded || error is CancellationError || Task.isCancelled {
            let error: LinkError =
                Task.isCancelled ? .cancelled(url) : .timeout(url, allowed: resolution.deadline.allowed)
            return Result(link: ResolvedLink(requestedURL: url, isPubWeb: true, error: error), isRemembered: false)
        }
        events.emit(.claimStoreFailed, url, reason: String(describing: error))
        guard failure == .resolveLocally else {
            let error = LinkError.claimStoreUnavailable(url, error)
            return Result(link: ResolvedLink(requestedURL: url, isPubWeb: true, error: error), isRemembered: false)
        }
        return Result(link: await resolve())
    }
}
