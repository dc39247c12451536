import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Keeps the number of open connections at or under a limit without refusing the ones that matter: when a new
/// connection would exceed it, the oldest idle connection (no request, or a head still arriving) is closed; when
/// none is idle, the connection that has been sending its request body longest; only when every connection has a
/// whole request being answered is the new one closed instead.
///
/// So no flood of idle or trickling connections can exhaust the file descriptors or keep a health check out for
/// longer than it takes to accept it: the check's connection takes the place of the flood's oldest. Hummingbird's
/// own `MaximumAvailableConnections` stops accepting instead, which leaves the check waiting in the listen backlog
/// behind the flood.
///
/// Invariant: `entries` holds every connection accepted and not yet closed, each in its phase; it is only touched
/// under the mutex, and channels are closed outside it.
final class ConnectionGuard: Sendable {
    /// Where a connection's current request is.
    enum Phase: Comparable {
        /// No request, or its head still arriving (the header timeout bounds that).
        case idle
        /// The head arrived, the body is arriving (the body timeout bounds that).
        case readingBody
        /// The whole request arrived; it is being answered.
        case answering
    }

    private struct Entry {
        let channel: any Channel
        let sequence: UInt64
        var phase: Phase
        /// When the phase began: the oldest in a phase goes first.
        var since: UInt64
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var nextSequence: UInt64 = 0
        var closedSinceLastLog: [Phase?: Int] = [:]
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

    /// Registers a new connection; closes the oldest idle one, else the oldest reading its body, else this one, when
    /// the limit is exceeded.
    func opened(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let (victim, log): ((any Channel)?, (closed: [Phase?: Int], open: Int)?) = state.withLock { state in
            state.entries[id] = Entry(channel: channel, sequence: state.nextSequence, phase: .idle, since: state.nextSequence)
            state.nextSequence += 1
            guard state.entries.count > limit else { return (nil, nil) }
            // A scan, only at the limit: the flood that reaches it is what this guards against.
            let candidate = state.entries.values
                .filter { $0.phase != .answering && ObjectIdentifier($0.channel) != id }
                .min { ($0.phase, $0.since) < ($1.phase, $1.since) }
            let victim = candidate?.channel ?? channel
            state.entries[ObjectIdentifier(victim)] = nil
            // `nil`: the new connection itself.
            state.closedSinceLastLog[candidate?.phase, default: 0] += 1
            // One line at the first shedding, then at most one every 10 s with the counts since.
            let now = ContinuousClock.now
            if let last = state.lastLog, now - last < .seconds(10) { return (victim, nil) }
            state.lastLog = now
            defer { state.closedSinceLastLog = [:] }
            return (victim, (state.closedSinceLastLog, state.entries.count))
        }
        guard let victim else { return }
        victim.close(promise: nil)
        guard let log else { return }
        let idle = log.closed[.idle] ?? 0
        let reading = log.closed[.readingBody] ?? 0
        let new = log.closed[nil] ?? 0
        logger.warning(
            """
            connection limit reached: closing the oldest idle connections, else those sending a request body longest, \
            else the new ones when every connection has a request being answered
            """,
            metadata: [
                "connections.limit": .stringConvertible(limit),
                "connections.open": .stringConvertible(log.open),
                "connections.closedIdle": .stringConvertible(idle),
                "connections.closedReadingBody": .stringConvertible(reading),
                "connections.closedNew": .stringConvertible(new),
            ]
        )
    }

    /// Forgets a closed connection.
    func closed(_ channel: any Channel) {
        _ = state.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Moves `channel` to `phase`.
    func enter(_ phase: Phase, _ channel: any Channel) {
        state.withLock { state in
            guard state.entries[ObjectIdentifier(channel)]?.phase != phase else { return }
            state.entries[ObjectIdentifier(channel)]?.phase = phase
            state.entries[ObjectIdentifier(channel)]?.since = state.nextSequence
            state.nextSequence += 1
        }
    }

    /// Marks a request of `channel` answered; the connection's next request head is timed again.
    func requestEnded(_ channel: any Channel) {
        enter(.idle, channel)
        channel.pipeline.fireUserInboundEventTriggered(HeaderReadTimeoutHandler.RequestEnded())
    }
}

/// Hummingbird's HTTP/1 child channel with ``ConnectionGuard``'s limit, a header-read timeout in front of it and a
/// ``RequestGuardHandler`` after the HTTP decoder.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let connections: ConnectionGuard
    let headerTimeout: TimeAmount
    let bodyTimeout: TimeAmount
    let maximumBodySize: Int

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        connections.opened(channel)
        let connections = connections
        channel.closeFuture.whenComplete { _ in connections.closed(channel) }
        do {
            try channel.pipeline.syncOperations.addHandler(HeaderReadTimeoutHandler(timeout: headerTimeout), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        let (bodyTimeout, maximumBodySize) = (bodyTimeout, maximumBodySize)
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(
                RequestGuardHandler(
                    bodyTimeout: bodyTimeout, maximumBodySize: maximumBodySize,
                    phase: { phase in connections.enter(phase, channel) }
                ),
                position: .after(decoder)
            )
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with an idle timeout, a header-read timeout, a body timeout, a body limit and ``ConnectionGuard``'s
    /// connection limit.
    static func guardedHTTP1(
        idleTimeout: Duration, headerTimeout: Duration, bodyTimeout: Duration, maximumBodySize: Int,
        connections: ConnectionGuard
    ) -> HTTPServerBuilder {
        .init { responder in
            let guarded: HTTPChannelHandler.Responder = { request, writer, channel in
                defer { connections.requestEnded(channel) }
                try await responder(request, writer, channel)
            }
            return GuardedHTTP1Channel(
                base: HTTP1Channel(responder: guarded, configuration: .init(idleTimeout: TimeAmount(idleTimeout))),
                connections: connections,
                headerTimeout: TimeAmount(headerTimeout),
                bodyTimeout: TimeAmount(bodyTimeout),
                maximumBodySize: maximumBodySize
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
