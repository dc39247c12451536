import NIOCore
import PostgresNIO
import Synchronization

/// The store's connections: opened when needed up to a maximum, lent one statement (or one transaction) at a time,
/// kept while idle, closed on ``close()``.
///
/// Idle connections are kept without a time limit: a won claim is tied to the session that made it, and a session
/// that ended would let another replica take the click over while this one still resolves it.
///
/// Invariant: `opened` counts the connections that exist or are being opened (idle, lent, or in an `open` under
/// way), never more than `maximum`; a caller that finds none idle and no room waits in FIFO order, until a returned
/// connection or a freed place (to open one) is handed to it, or its task is cancelled. A connection that failed or
/// closed is dropped, never lent again. Continuations are resumed outside the lock.
final class ConnectionPool: Sendable {
    private struct Lent: Sendable {
        let id: Int
        let connection: PostgresConnection
        let record: BackendFramingGuard.Record
    }

    private enum Grant: Sendable {
        case connection(Lent)
        /// A place freed: open a connection.
        case open
    }

    private struct State {
        var idle: [Lent] = []
        var all: [Int: Lent] = [:]
        var opened = 0
        var waiters: [(id: Int, continuation: CheckedContinuation<Grant, any Error>)] = []
        var nextID = 0
        var closed = false
    }

    private let opener: ConnectionOpener
    private let maximum: Int
    private let state = Mutex(State())

    /// - Parameters:
    ///   - opener: How a connection is opened.
    ///   - maximum: The most connections at once.
    init(opener: ConnectionOpener, maximum: Int) {
        self.opener = opener
        self.maximum = maximum
    }

    deinit {
        // A pool that was never closed: its connections are closed now, each kept alive until its channel is.
        for lent in state.withLock({ Array($0.all.values) }) {
            lent.connection.close().whenComplete { _ in _ = lent }
        }
    }

    /// Runs `body` with a connection of its own.
    ///
    /// - Parameter body: What to do with the connection; it must not keep it.
    /// - Returns: What `body` returns.
    /// - Throws: What opening a connection or `body` throws, ``BackendFramingGuard/Violation`` when the server's
    ///   framing was refused meanwhile, `CancellationError` when the task is cancelled while it waits, or
    ///   ``PostgresClaimStoreError`` once the pool is closed.
    func withConnection<Value>(_ body: (PostgresConnection) async throws -> Value) async throws -> Value {
        let lent = try await lend()
        do {
            let value = try await body(lent.connection)
            giveBack(lent, usable: true)
            return value
        } catch {
            if let violation = lent.record.violation {
                giveBack(lent, usable: false)
                throw violation
            }
            giveBack(lent, usable: Self.leavesSessionUsable(error))
            throw error
        }
    }

    /// Whether the connection is still usable after `error`: the server answered the statement with an error and
    /// the session goes on (dropping it would end the session that holds this process's claims), unlike a failed
    /// connection or a read cut short.
    private static func leavesSessionUsable(_ error: any Error) -> Bool {
        if let error = error as? PSQLError { return error.code == .server }
        if let error = error as? PostgresTransactionError {
            return [error.beginError, error.closureError, error.commitError, error.rollbackError].allSatisfy {
                $0.map(leavesSessionUsable) ?? true
            }
        }
        return false
    }

    /// Closes every connection, lent ones included, and fails every later request; returns once they are closed.
    func close() async {
        let (connections, waiters) = state.withLock { state in
            state.closed = true
            defer {
                state.idle = []
                state.all = [:]
                state.waiters = []
            }
            return (Array(state.all.values), state.waiters)
        }
        for waiter in waiters { waiter.continuation.resume(throwing: Self.closedError) }
        for lent in connections {
            try? await lent.connection.close()
        }
    }

    private static let closedError = PostgresClaimStoreError(
        code: .databaseFailed, message: "the claim store has shut down (its run() ended): it makes no more claims")

    private func lend() async throws -> Lent {
        enum Step { case lend(Lent), open, wait }
        let step = try state.withLock { state throws -> Step in
            guard !state.closed else { throw Self.closedError }
            while let lent = state.idle.popLast() {
                if !lent.connection.isClosed { return .lend(lent) }
                // Closed while idle (the server restarted, or ended the session).
                state.all[lent.id] = nil
                state.opened -= 1
            }
            guard state.opened < maximum else { return .wait }
            state.opened += 1
            return .open
        }
        switch step {
        case let .lend(lent): return lent
        case .open: return try await open()
        case .wait:
            switch try await wait() {
            case let .connection(lent): return lent
            case .open: return try await open()
            }
        }
    }

    /// Opens a connection in a place already counted in `opened`; gives the place on when it fails.
    private func open() async throws -> Lent {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        do {
            let (connection, record) = try await opener.open(id: id)
            let lent = Lent(id: id, connection: connection, record: record)
            let closed = state.withLock { state in
                if !state.closed { state.all[id] = lent }
                return state.closed
            }
            if closed {
                try? await connection.close()
                throw Self.closedError
            }
            return lent
        } catch {
            freePlace()
            throw error
        }
    }

    private func wait() async throws -> Grant {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Grant, any Error>) in
                let refusal: (any Error)? = state.withLock { state in
                    if state.closed { return Self.closedError }
                    if Task.isCancelled { return CancellationError() }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let refusal { continuation.resume(throwing: refusal) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns a connection: to the first waiter, else to the idle ones; a connection that failed or closed is
    /// closed and its place given on.
    private func giveBack(_ lent: Lent, usable: Bool) {
        let keep = usable && !lent.connection.isClosed
        let waiter: (CheckedContinuation<Grant, any Error>, Grant)? = state.withLock { state in
            guard !state.closed else { return nil }
            if keep {
                if state.waiters.isEmpty {
                    state.idle.append(lent)
                    return nil
                }
                return (state.waiters.removeFirst().continuation, .connection(lent))
            }
            state.all[lent.id] = nil
            guard !state.waiters.isEmpty else {
                state.opened -= 1
                return nil
            }
            return (state.waiters.removeFirst().continuation, .open)
        }
        if !keep { lent.connection.close().whenComplete { _ in _ = lent } }
        if let (continuation, grant) = waiter { continuation.resume(returning: grant) }
    }

    /// A place that an `open` failed to fill: to the first waiter, to open its own.
    private func freePlace() {
        let waiter = state.withLock { state -> CheckedContinuation<Grant, any Error>? in
            guard !state.closed, !state.waiters.isEmpty else {
                state.opened -= 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        waiter?.resume(returning: .open)
    }
}
