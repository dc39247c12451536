/// What a claim in a ``ClaimStore`` got.
public enum SharedClaim: Sendable, Hashable {
    /// This process holds the click: it resolves it and publishes the outcome.
    case won(ClaimTicket)
    /// Another process holds the click and has not published an outcome yet.
    case heldElsewhere
    /// Another process resolved the click within the duplicate window: its outcome.
    case settled(SharedOutcome)
}
