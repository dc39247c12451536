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
