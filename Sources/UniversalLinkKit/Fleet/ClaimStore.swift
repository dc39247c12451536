import Foundation

/// Click claims shared beyond one process: the seam a fleet of replicas coalesces through, and the values that cross
/// it.
///
/// A ``LinkManager`` always coalesces the activations of one click inside its process first (concurrent calls and
/// calls within ``LinkManager/Configuration/duplicateWindow`` join one resolution, at no cost beyond a dictionary
/// look-up). With a claim store configured (``LinkManager/Configuration/claimStore``), the one activation that
/// starts a resolution in this process then claims the click in the store before it sends anything:
///
/// - ``SharedClaim/won(_:)``: this process resolves the click, then ``publish(_:of:ticket:)`` its outcome;
/// - ``SharedClaim/settled(_:)``: another process already resolved it within the window: its outcome is the answer,
///   and no request is sent;
/// - ``SharedClaim/heldElsewhere``: another process is resolving it: ``awaitOutcome(of:within:)`` waits for its
///   outcome; when the other's lease ends with no outcome (it died), the manager claims again and may take over.
///
/// So a process makes at most one claim per click at a time, whatever its local traffic, and a click reaches the
/// Response Handler at most twice fleet-wide (a winner that dies after sending, and the one that takes over).
///
/// The manager never waits on the store past a resolution's deadline: when the deadline passes, its callers get
/// `timeout` whatever the store is doing, and the store's task is cancelled. A store error is handled as
/// ``LinkManager/Configuration/claimStoreFailure`` says.
///
/// Implementations: `UniversalLinkKitPostgres` in the package's `Integrations/` (PostgreSQL, for a fleet). The
/// store must never keep the tracking link itself (its query identifies the recipient): key by a keyed hash of
/// ``ClickIdentity/key``.
public protocol ClaimStore: Sendable {
    /// Claims `click` for `lease`, or reports who has it.
    ///
    /// One atomic step: of any number of concurrent claims of one click across the fleet, exactly one is
    /// ``SharedClaim/won(_:)`` while a lease is unexpired.
    ///
    /// - Parameters:
    ///   - click: The click.
    ///   - lease: How long the claim holds if no outcome is published: a little longer than the resolution's
    ///     time allowed. Once it has passed with no outcome, a claim of the same click is won again (a takeover).
    /// - Returns: What the claim got.
    /// - Throws: When the store cannot be reached or fails.
    func claim(_ click: ClickIdentity, lease: Duration) async throws -> SharedClaim

    /// Stores the outcome of a claim this process won, for the other processes' callers.
    ///
    /// - Parameters:
    ///   - outcome: The outcome to share.
    ///   - click: The click.
    ///   - ticket: The ticket ``claim(_:lease:)`` returned. A store ignores an outcome whose claim was taken over.
    /// - Throws: When the store cannot be reached or fails.
    func publish(_ outcome: SharedOutcome, of click: ClickIdentity, ticket: ClaimTicket) async throws

    /// Gives up a won claim without an outcome (the process is shutting down), so another process can take the
    /// click over at once instead of after the lease.
    ///
    /// - Parameters:
    ///   - click: The click.
    ///   - ticket: The ticket ``claim(_:lease:)`` returned.
    /// - Throws: When the store cannot be reached or fails.
    func release(_ click: ClickIdentity, ticket: ClaimTicket) async throws

    /// Waits for the outcome of a click another process holds.
    ///
    /// - Parameters:
    ///   - click: The click.
    ///   - timeLeft: How long the caller can wait; the manager also cancels the waiting task at its deadline.
    /// - Returns: The outcome once published; `nil` when the holder's lease ended with no outcome, or the row was
    ///   gone, so the caller should claim again.
    /// - Throws: When the store cannot be reached or fails, or `CancellationError`.
    func awaitOutcome(of click: ClickIdentity, within timeLeft: Duration) async throws -> SharedOutcome?
}

/// What a claim in a ``ClaimStore`` got.
public enum SharedClaim: Sendable, Hashable {
    /// This process holds the click: it resolves it and publishes the outcome.
    case won(ClaimTicket)
    /// Another process holds the click and has not published an outcome yet.
    case heldElsewhere
    /// Another process resolved the click within the duplicate window: its outcome.
    case settled(SharedOutcome)
}

/// A won claim, for publishing its outcome or releasing it.
public struct ClaimTicket: Sendable, Hashable {
    /// The store's token of the claim (a fencing token: a takeover gets a new one).
    public var token: String
    /// Whether the claim took the click over from a holder whose lease ended with no outcome.
    public var isTakeover: Bool

    /// Creates a ticket.
    ///
    /// - Parameters:
    ///   - token: The store's token of the claim.
    ///   - isTakeover: Whether the claim took the click over.
    public init(token: String, isTakeover: Bool = false) {
        self.token = token
        self.isTakeover = isTakeover
    }
}

/// What a ``LinkManager`` does when its ``ClaimStore`` fails (cannot be reached, or errs).
public struct ClaimStoreFailurePolicy: Sendable, Hashable {
    private enum Storage: Hashable, Sendable {
        case resolveLocally, reject
    }

    private let storage: Storage

    /// Resolve with this process's claims alone (the default): callers still reach their destination, and another
    /// replica may count the same click once more until the store is back. Reported as a
    /// ``LinkEvent/Kind/claimStoreFailed`` event.
    public static var resolveLocally: Self { .init(storage: .resolveLocally) }
    /// Fail the resolution with ``LinkError/Code/claimStoreUnavailable``: no click is counted twice, and no caller
    /// is answered until the store is back.
    public static var reject: Self { .init(storage: .reject) }

    /// `resolveLocally` or `reject`, for logs.
    package var description: String {
        switch storage {
        case .resolveLocally: "resolveLocally"
        case .reject: "reject"
        }
    }
}
