import Foundation
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// Keeps the number of open connections at or under a limit without refusing the ones that matter: when a new
/// connection would exceed it, the oldest connection with no request in progress (idle, or still sending its
/// head) is closed; only when every connection has a request in progress is the new one closed instead.
///
/// So a flood of idle connections cannot exhaust the file descriptors, nor keep a health check out: the check's
/// connection takes the place of the oldest idle one. Hummingbird's own `MaximumAvailableConnections` stops
/// accepting instead, which leaves the check waiting in the listen backlog behind the flood.
///
/// Invariant: `entries` holds every connection accepted and not yet closed, each with the number of its requests
/// in progress; it is only touched under the mutex, and channels are closed outside it.
final class ConnectionGuard: Sendable {
    private struct Entry {
        let channel: any Channel
        let sequence: UInt64
        var requests: Int
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var nextSequence: UInt64 = 0
        var closedSinceLastLog = 0
        var lastLog: ContinuousClock.Instant?
    }

    /// The most connections open at once.
    let limit: Int
    private let logger: Logger
    private let state = Mutex(State())

    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    /// The connections open now.
    var openConnections: Int { state.withLock { $0.entries.count } }

    /// Registers a new connection; closes the oldest idle one (or this one) when the limit is exceeded.
    func opened(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let (victim, log): ((any Channel)?, (closed: Int, open: Int)?) = state.withLock { state in
            state.entries[id] = Entry(channel: channel, sequence: state.nextSequence, requests: 0)
            state.nextSequence += 1
            guard state.entries.count > limit else { return (nil, nil) }
            // A scan, only at the limit: the flood that reaches it is what this guards against.
            let oldestIdle = state.entries.values
                .filter { $0.requests == 0 && ObjectIdentifier($0.channel) != id }
                .min { $0.sequence < $1.sequence }
            let victim = oldestIdle?.channel ?? channel
            state.entries[ObjectIdentifier(victim)] = nil
            state.closedSinceLastLog += 1
            // One line at the first shedding, then at most one every 10 s with the count since.
            let now = ContinuousClock.now
            if let last = state.lastLog, now - last < .seconds(10) { return (victim, nil) }
            state.lastLog = now
            defer { state.closedSinceLastLog = 0 }
            return (victim, (state.closedSinceLastLog, state.entries.count))
        }
        guard let victim else { return }
        victim.close(promise: nil)
        if let log {
            logger.warning(
                "connection limit reached: closing the oldest idle connections to admit new ones",
                metadata: [
                    "connections.limit": .stringConvertible(limit),
                    "connections.open": .stringConvertible(log.open),
                    "connections.closed": .stringConvertible(log.closed),
                ]
            )
        }
    }

    /// Forgets a closed connection.
    func closed(_ channel: any Channel) {
        _ = state.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Marks a request of `channel` in progress, until ``requestEnded(_:)``.
    func requestStarted(_ channel: any Channel) {
        state.withLock { $0.entries[ObjectIdentifier(channel)]?.requests += 1 }
    }

    /// Marks a request of `channel` answered; the connection's next request head is timed again.
    func requestEnded(_ channel: any Channel) {
        state.withLock { $0.entries[ObjectIdentifier(channel)]?.requests -= 1 }
        channel.pipeline.fireUserInboundEventTriggered(HeaderReadTimeoutHandler.RequestEnded())
    }
}

/// Hummingbird's HTTP/1 child channel with ``ConnectionGuard``'s limit and a header-read timeout in front of it.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let connections: ConnectionGuard
    let headerTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        connections.opened(channel)
        let connections = connections
        channel.closeFuture.whenComplete { _ in connections.closed(channel) }
        do {
            try channel.pipeline.syncOperations.addHandler(HeaderReadTimeoutHandler(timeout: headerTimeout), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with an idle timeout, a header-read timeout and ``ConnectionGuard``'s connection limit.
    static func guardedHTTP1(idleTimeout: Duration, headerTimeout: Duration, connections: ConnectionGuard) -> HTTPServerBuilder {
        .init { responder in
            let guarded: HTTPChannelHandler.Responder = { request, writer, channel in
                connections.requestStarted(channel)
                defer { connections.requestEnded(channel) }
                try await responder(request, writer, channel)
            }
            return GuardedHTTP1Channel(
                base: HTTP1Channel(responder: guarded, configuration: .init(idleTimeout: TimeAmount(idleTimeout))),
                connections: connections,
                headerTimeout: TimeAmount(headerTimeout)
            )
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
