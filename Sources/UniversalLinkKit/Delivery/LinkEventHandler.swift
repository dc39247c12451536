/// Receives the ``LinkEvent``s of a ``LinkManager``.
///
/// The handler runs synchronously on the thread that made the step, never under a lock of the manager's: keep it
/// short (hand the event to a logger or a metrics backend) and never block in it.
public struct LinkEventHandler: Sendable {
    private let body: @Sendable (LinkEvent) -> Void

    /// Creates a handler.
    ///
    /// - Parameter body: Called once per event.
    public init(_ body: @escaping @Sendable (LinkEvent) -> Void) {
        self.body = body
    }

    /// Hands an event to the handler.
    ///
    /// - Parameter event: The event.
    public func callAsFunction(_ event: LinkEvent) {
        body(event)
    }
}
