import Foundation
import Synchronization
internal import _LinkKitLocking
import UniversalLinkKit

/// The machinery behind ``ResponseHandlerStub``: the listener, one thread per connection, the shared state.
///
/// It is a separate object so that threads keep it (not the public stub) alive: the stub's `deinit` can then run
/// while connections are open, and shut them down.
final class StubServer: Sendable {
    struct State: Sendable {
        var links: [String: ResponseHandlerStub.Link]
        var queues: [String: [Behavior]] = [:]
        var defaultBehavior = Behavior.normal
        var responder: (@Sendable (RecordedRequest) -> Behavior?)?
        /// Told of each answer once sent (``ResponseHandlerStub/setResponseObserver(_:)``).
        var responseObserver: (@Sendable (RecordedRequest, Int?) -> Void)?
        var requests: [RecordedRequest] = []
        /// Callers of `waitForRequests`, resumed when the count reaches theirs.
        var requestWaiters: [(count: Int, waiter: Waiter<Void>)] = []
        /// Callers of `waitForAnswerEnd`, resumed when an answer's writing ends.
        var answerWaiters: [Waiter<Void>] = []
        var badRequestCount = 0
        /// Bytes written to clients by answers (head and body).
        var bytesSent = 0
        /// When the last answer's writing ended (its last byte written, or the write the closed client refused).
        var lastAnswerEnded: ContinuousClock.Instant?
        var connectionCount = 0
        /// Descriptors of open connections, so shutdown can wake their threads.
        var openConnections: Set<Int32> = []
        var liveConnectionThreads = 0
        var acceptThreadDone = false
        var isShutDown = false
    }

    let port: UInt16
    private let state: Mutex<State>
    private let listener: Int32
    /// Becomes readable, for good, when the stub shuts down: every wait in the server polls it too.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init(links: [String: ResponseHandlerStub.Link], port requestedPort: UInt16) throws(Socket.Failure) {
        let pipe = try Socket.makePipe()
        do {
            (listener, port) = try Socket.listen(port: requestedPort, backlog: 1024)
        } catch {
            Socket.close(pipe.read)
            Socket.close(pipe.write)
            throw error
        }
        wakeRead = pipe.read
        wakeWrite = pipe.write
        state = Mutex(State(links: links))
    }

    /// Waits until `count` requests were recorded: resumed by the request that reaches it, no polling.
    ///
    /// - Returns: `true` when the count was reached, `false` at `timeout` or when the calling task is cancelled.
    func waitForRequests(_ count: Int, timeout: Duration) async -> Bool {
        let waiter = Waiter<Void>()
        let reached = withState { state -> Bool in
            if state.requests.count >= count { return true }
            state.requestWaiters.append((count, waiter))
            return false
        }
        if reached { return true }
        // The package's one waiter, registered before its deadline is armed.
        if case .value = await waiter.wait(until: .now + timeout, clock: .continuous) { return true }
        withState { state in state.requestWaiters.removeAll { $0.waiter === waiter } }
        return false
    }

    /// Waits until an answer's writing has ended (its bytes counted), since start or the last reset.
    ///
    /// - Returns: `true` once one has, `false` at `timeout` or when the calling task is cancelled.
    func waitForAnswerEnd(timeout: Duration) async -> Bool {
        let waiter = Waiter<Void>()
        let ended = withState { state -> Bool in
            if state.lastAnswerEnded != nil { return true }
            state.answerWaiters.append(waiter)
            return false
        }
        if ended { return true }
        if case .value = await waiter.wait(until: .now + timeout, clock: .continuous) { return true }
        withState { state in state.answerWaiters.removeAll { $0 === waiter } }
        return false
    }

    /// Runs `body` with exclusive access to the state (and tells ThreadSanitizer so).
    func withState<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        state.withTrackedLock { state in body(&state) }
    }

    deinit {
        // Threads hold the server strongly, so by now every one of them has finished.
        Socket.close(wakeRead)
        Socket.close(wakeWrite)
    }

    /// Starts the accept thread; the listener is already accepting into its backlog.
    func start() {
        Self.spawn(name: "ResponseHandlerStub.accept") { [self] in acceptLoop() }
    }

    private static func spawn(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = 512 * 1024
        thread.start()
    }

    private func acceptLoop() {
        defer {
            Socket.close(listener)
            withState { $0.acceptThreadDone = true }
        }
        while true {
            let readiness = Socket.wait(for: listener, wake: wakeRead, timeout: nil)
            // Leave (and close the listener) only once `shutdown()` has finished with the descriptor, which it
            // does in the same critical section that sets the flag.
            if withState({ $0.isShutDown }) { return }
            guard readiness == .readable, let fd = Socket.accept(listener) else {
                // Out of descriptors or an aborted connection: back off instead of spinning on poll.
                _ = Socket.wait(for: nil, wake: wakeRead, timeout: 0.01)
                continue
            }
            let accepted = withState { state in
                guard !state.isShutDown else { return false }
                state.openConnections.insert(fd)
                state.liveConnectionThreads += 1
                state.connectionCount += 1
                return true
            }
            guard accepted else {
                Socket.close(fd)
                continue
            }
            Self.spawn(name: "ResponseHandlerStub.connection") { [self] in serve(fd) }
        }
    }

    /// Stops accepting, wakes every waiting thread, and waits a bounded time for them to finish.
    func shutdown() {
        let first = withState { state in
            guard !state.isShutDown else { return false }
            state.isShutDown = true
            // A responder capturing the stub would otherwise keep it (and this server) alive forever.
            state.responder = nil
            state.responseObserver = nil
            // Under the lock: a connection thread unregisters its descriptor under the lock before closing it,
            // and the accept thread closes the listener only after seeing `isShutDown`, so none of these numbers
            // can have been reused by an unrelated file yet. shutdown(2) does not block.
            for fd in state.openConnections { Socket.shutdownBoth(fd) }
            Socket.shutdownBoth(listener)
            return true
        }
        guard first else { return }
        Socket.signal(wakeWrite)
        let deadline = Socket.monotonicNow() + 2
        while Socket.monotonicNow() < deadline {
            let done = withState { $0.acceptThreadDone && $0.liveConnectionThreads == 0 }
            if done { return }
            _ = Socket.wait(for: nil, wake: -1, timeout: 0.002)
        }
    }

    // MARK: - One connection

    /// How a behaviour left the connection.
    enum Ending {
        /// The answer is complete; the connection may serve another request.
        case answered
        /// Close the connection now (with a FIN).
        case close
        /// Reset the connection (with a RST).
        case reset
    }

    private func serve(_ fd: Int32) {
        var ending = Ending.close
        defer {
            withState { state in
                state.openConnections.remove(fd)
                state.liveConnectionThreads -= 1
            }
            if ending == .reset {
                Socket.setLingerZero(fd)
            }
            Socket.close(fd)
        }
        var reader = RequestReader(fd: fd, wake: wakeRead)
        while true {
            switch reader.next() {
            case .closed:
                return
            case .bad(let status, let reason):
                withState { $0.badRequestCount += 1 }
                let response = StubResponse(status: status, headers: [], body: Array("\(reason)\n".utf8))
                var writer = ResponseWriter(fd: fd, wake: wakeRead, pacing: nil)
                _ = writer.send(response.head(close: true))
                _ = writer.send(response.body)
                lingeringClose(fd)
                return
            case .request(let request, let keepAlive):
                let behavior = choose(for: request)
                var writer = ResponseWriter(fd: fd, wake: wakeRead, pacing: nil)
                ending = perform(behavior, for: request, keepAlive: keepAlive, writer: &writer)
                // Told of the answer just sent; outside the lock, like the responder.
                withState { $0.responseObserver }?(request, writer.sentStatus)
                let sent = writer.sentBytes
                let ended = ContinuousClock.now
                let waiters = withState { state -> [Waiter<Void>] in
                    state.bytesSent += sent
                    state.lastAnswerEnded = ended
                    defer { state.answerWaiters = [] }
                    return state.answerWaiters
                }
                for waiter in waiters { waiter.resume(returning: ()) }
                if ending == .answered, !keepAlive {
                    lingeringClose(fd)
                    ending = .close
                    return
                }
                if ending != .answered { return }
            }
        }
    }

    /// Closes our side after a final answer without losing it: unread request bytes left in the kernel would make
    /// `close` send a RST that can destroy the answer before the client reads it.
    private func lingeringClose(_ fd: Int32) {
        Socket.shutdownWrite(fd)
        let deadline = Socket.monotonicNow() + 0.5
        while Socket.monotonicNow() < deadline {
            guard Socket.wait(for: fd, wake: wakeRead, timeout: deadline - Socket.monotonicNow()) == .readable,
                  let bytes = Socket.receive(fd), !bytes.isEmpty
            else { return }
        }
    }

    /// Records the request and picks its behaviour: queued for its exact target, queued for its path, the
    /// responder's choice, then the default.
    private func choose(for request: RecordedRequest) -> Behavior.Kind {
        let (queued, responder, fallback, reached) = withState { state in
            state.requests.append(request)
            let count = state.requests.count
            let reached = state.requestWaiters.filter { $0.count <= count }.map(\.waiter)
            state.requestWaiters.removeAll { $0.count <= count }
            for key in [request.target, request.path] {
                if var queue = state.queues[key], !queue.isEmpty {
                    let first = queue.removeFirst()
                    state.queues[key] = queue.isEmpty ? nil : queue
                    return (Optional(first), state.responder, state.defaultBehavior, reached)
                }
            }
            return (nil, state.responder, state.defaultBehavior, reached)
        }
        for waiter in reached { waiter.resume(returning: ()) }
        if let queued { return queued.kind }
        // Outside the lock: the responder may well call back into the stub (counts, links).
        if let chosen = responder?(request) { return chosen.kind }
        return fallback.kind
    }

    private func perform(
        _ kind: Behavior.Kind, for request: RecordedRequest, keepAlive: Bool, writer: inout ResponseWriter
    ) -> Ending {
        let close = !keepAlive
        let isHead = request.method == "HEAD"
        func send(_ response: StubResponse) -> Ending {
            guard writer.send(response.head(close: close)) else { return .close }
            if !isHead, response.allowsBody {
                guard writer.send(response.body) else { return .close }
            }
            return .answered
        }

        switch kind {
        case .normal:
            return send(normalResponse(for: request))
        case .status(let code, let headers, let body):
            var headers = headers
            if !body.isEmpty, !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
                headers.append(("Content-Type", "text/plain; charset=utf-8"))
            }
            return send(StubResponse(status: code, headers: headers, body: Array(body.utf8)))
        case .json(let body):
            return send(StubResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(body.utf8)))
        case .redirect(let location, let status):
            return send(StubResponse(status: status, headers: [("Location", location)], body: []))
        case .delay(let seconds, let then):
            if Socket.wait(for: nil, wake: wakeRead, timeout: max(0, seconds)) == .woken { return .close }
            return perform(then, for: request, keepAlive: keepAlive, writer: &writer)
        case .trickle(let bytesPerChunk, let interval, let then):
            writer.pacing = ResponseWriter.Pacing(bytesPerChunk: bytesPerChunk, interval: interval)
            return perform(then, for: request, keepAlive: keepAlive, writer: &writer)
        case .hugeBody(let bytes):
            let response = StubResponse(
                status: 200, headers: [("Content-Type", "application/json")], body: [], contentLength: bytes)
            guard writer.send(response.head(close: close)) else { return .close }
            if isHead { return .answered }
            return writer.sendGenerated(count: bytes) ? .answered : .close
        case .chunkedBody(let bytes):
            let response = StubResponse(
                status: 200, headers: [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")], body: [])
            guard writer.send(response.head(close: close)) else { return .close }
            if isHead { return .answered }
            return writer.sendGenerated(count: bytes, chunked: true) ? .answered : .close
        case .dropConnection:
            return .close
        case .resetConnection:
            return .reset
        case .dropAfterHeaders:
            var response = normalResponse(for: request)
            if response.body.isEmpty {
                response = StubResponse(
                    status: 200, headers: [("Content-Type", "application/json")], body: [], contentLength: 64)
            }
            _ = writer.send(response.head(close: close))
            return .close
        case .compressedBomb(let bytes):
            let response = StubResponse(
                status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: [],
                contentLength: bytes)
            guard writer.send(response.head(close: close)) else { return .close }
            if isHead { return .answered }
            return writer.sendGzipBomb(count: bytes) ? .answered : .close
        case .endlessBody:
            let response = StubResponse(
                status: 200, headers: [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")], body: [])
            guard writer.send(response.head(close: close)), !isHead else { return .close }
            _ = writer.sendEndless()
            return .close
        case .resetAfterStatusLine:
            _ = writer.send(Array("HTTP/1.1 200 OK\r\n".utf8))
            return .reset
        case .noResponse:
            while true {
                guard Socket.wait(for: writer.fd, wake: wakeRead, timeout: nil) == .readable,
                      let bytes = Socket.receive(writer.fd), !bytes.isEmpty
                else { return .close }
            }
        }
    }

    /// The answer of the real Response Handler for this request, from the link table.
    func normalResponse(for request: RecordedRequest) -> StubResponse {
        let link = withState { $0.links[request.target] ?? $0.links[request.path] }
        guard let link else {
            return StubResponse(
                status: 404, headers: [("Content-Type", "text/plain; charset=utf-8")],
                body: Array("no link for \(request.target)\n".utf8))
        }
        let wantsJSON = request.headerValues("accept").contains { $0.lowercased().contains("application/json") }
        if wantsJSON {
            return StubResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(link.json.utf8))
        }
        guard let location = link.webLinkUrl ?? link.mobileDeepLinkUrl else {
            return StubResponse(
                status: 404, headers: [("Content-Type", "text/plain; charset=utf-8")],
                body: Array("link \(request.target) has no destination\n".utf8))
        }
        return StubResponse(status: 302, headers: [("Location", location)], body: [])
    }
}
