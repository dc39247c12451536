/// What a ``LinkManager`` does when its ``ClaimStore`` fails (cannot be reached, or errs).
public struct ClaimStoreFailurePolicy: Sendable, Hashable, CustomStringConvertible {
    enum Storage: Hashable, Sendable {
        case resolveLocally, reject
    }

    let storage: Storage

    /// Resolve with this process's claims alone (the default): callers still reach their destination, and another
    /// replica may count the same click once more until the store is back. Reported as a
    /// ``LinkEvent/Kind/claimStoreFailed`` event.
    public static var resolveLocally: Self { .init(storage: .resolveLocally) }
    /// Fail the resolution with ``LinkError/Code/claimStoreUnavailable``: no click is counted twice, and no caller
    /// is answered until the store is back.
    public static var reject: Self { .init(storage: .reject) }

    /// `resolveLocally` or `reject`.
    public var description: String {
        switch storage {
        case .resolveLocally: "resolveLocally"
        case .reject: "reject"
        }
    }
}
