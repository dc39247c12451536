public import ServiceLifecycle
public import UniversalLinkKit

/// Runs a `LinkManager`'s shutdown as a swift-service-lifecycle `Service`: when the group shuts down gracefully,
/// the manager stops taking links, lets the ones in flight finish within the grace period, and cancels the rest.
///
/// Put it before the HTTP server in the group's services: a group shuts its services down in reverse order, so
/// the server stops accepting and drains its requests first, and the manager then has nothing left in flight.
public struct LinkManagerService: Service {
    /// The manager.
    public let manager: LinkManager
    /// How long in-flight resolutions may take once shutdown began.
    public let gracePeriod: Duration

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - manager: The manager.
    ///   - gracePeriod: How long in-flight resolutions may take once shutdown began. Default 10 s.
    public init(manager: LinkManager, gracePeriod: Duration = .seconds(10)) {
        self.manager = manager
        self.gracePeriod = gracePeriod
    }

    /// Waits for graceful shutdown (or cancellation), then shuts the manager down.
    public func run() async throws {
        // Throws only when the task is cancelled: the manager is shut down either way.
        try? await gracefulShutdown()
        await manager.shutdown(gracePeriod: gracePeriod)
    }
}
