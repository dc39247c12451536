import Foundation
internal import _LinkKitText

/// A real HTTP/1.1 server on 127.0.0.1 that answers like Oracle Responsys' Response Handler, and misbehaves on
/// demand.
///
/// The Response Handler answers a `GET` of a click-tracking URL (`/pub/acc?_ri_=...`) sent with
/// `Accept: application/json` with `{"webLinkUrl": "...", "mobileDeepLinkUrl": "..." or null}`, and the same URL
/// without that header with a `302` to the web link. The stub does the same from a link table, records every
/// request, and can answer any request with a ``Behavior``: a status, a delay, a trickle, a huge body, a dropped
/// or reset connection, no answer at all.
///
/// ```swift
/// let stub = try ResponseHandlerStub(links: [
///     "/pub/acc?_ri_=1": .init(webLinkUrl: "https://www.example.com/p/1", mobileDeepLinkUrl: "app://p/1"),
/// ])
/// defer { stub.shutdown() }
/// stub.enqueue([.status(503, headers: [("Retry-After", "1")])], for: "/pub/acc")
/// // ... resolve stub.url("/pub/acc?_ri_=1") with the code under test ...
/// #expect(stub.requestCount(for: "/pub/acc") == 2)
/// ```
///
/// It speaks HTTP/1.1 with keep-alive (successive and pipelined requests on one connection, `Connection: close`
/// honoured, `Content-Length` always sent), serves each connection on its own thread (blocking I/O stays off the
/// Swift concurrency pool), answers unreadable requests with `400`, and never lets a vanished client raise
/// `SIGPIPE`. All methods are thread-safe.
public final class ResponseHandlerStub: Sendable {
    /// One row of the link table: what the Response Handler knows about a tracking link.
    public struct Link: Sendable, Hashable {
        /// Where the link goes on the web; JSON `null` when `nil`.
        package var webLinkUrl: String?
        /// Where the link goes in the app; JSON `null` when `nil` (the marketer left the app column empty).
        package var mobileDeepLinkUrl: String?

        /// Creates a link table row.
        ///
        /// - Parameters:
        ///   - webLinkUrl: the web destination, or `nil`.
        ///   - mobileDeepLinkUrl: the app destination, or `nil`.
        public init(webLinkUrl: String?, mobileDeepLinkUrl: String?) {
            self.webLinkUrl = webLinkUrl
            self.mobileDeepLinkUrl = mobileDeepLinkUrl
        }

        /// The JSON body the Response Handler sends for this link, keys in its order, `null` for absent links.
        package var json: String {
            JSONWriter.text(
                .object([("webLinkUrl", .stringOrNull(webLinkUrl)), ("mobileDeepLinkUrl", .stringOrNull(mobileDeepLinkUrl))]),
                style: .compact)
        }
    }

    /// Why the stub could not start: the socket call that failed and its `errno`.
    package struct StartError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The system call that failed (`socket`, `bind`, `listen`...).
        package var call: String
        /// The `errno` it reported (for example `EADDRINUSE` when a fixed port is taken).
        package var code: Int32

        /// What failed and what to do about it.
        package var description: String {
            let cause = Socket.Failure(call: call, errno: code).description
            return call == "bind"
                ? "ResponseHandlerStub could not bind 127.0.0.1: \(cause); choose another port or 0 for an ephemeral one"
                : "ResponseHandlerStub could not start: \(cause)"
        }
    }

    private let server: StubServer

    /// Binds 127.0.0.1:`port` and starts accepting connections before returning.
    ///
    /// - Parameters:
    ///   - links: the link table, keyed by exact request target (`/pub/acc?_ri_=1`) or bare path (`/pub/acc`).
    ///   - port: the port to listen on; `0` (the default) picks a free ephemeral port, read it back from ``port``.
    /// - Throws: `StartError` when the socket cannot be created or bound (for example, a fixed port in use).
    public init(links: [String: Link] = [:], port: UInt16 = 0) throws {
        do {
            server = try StubServer(links: links, port: port)
        } catch {
            throw StartError(call: error.call, code: error.errno)
        }
        server.start()
    }

    deinit {
        server.shutdown()
    }

    /// The port the stub listens on.
    public var port: Int {
        Int(server.port)
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    package var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// The URL of a request target on this stub.
    ///
    /// - Parameter pathAndQuery: a path with an optional query, for example `"/pub/acc?_ri_=1"` (a missing
    ///   leading `/` is added). It is appended as given, so the query reaches the stub byte for byte; only
    ///   characters a URL cannot hold at all (spaces, quotes...) are percent-encoded.
    /// - Returns: `baseURL` followed by `pathAndQuery`.
    public func url(_ pathAndQuery: String) -> URL {
        let separator = pathAndQuery.hasPrefix("/") ? "" : "/"
        let text = "\(baseURL.absoluteString)\(separator)\(pathAndQuery)"
        if let url = URL(string: text) { return url }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "%#")
        let encoded = "\(baseURL.absoluteString)\(separator)"
            + (pathAndQuery.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        return URL(string: encoded) ?? baseURL
    }

    /// Adds, replaces or (with `nil`) removes one row of the link table.
    ///
    /// - Parameters:
    ///   - link: the row, or `nil` to remove it.
    ///   - key: an exact request target (`/pub/acc?_ri_=1`) or a bare path (`/pub/acc`); a request whose exact
    ///     target is in the table uses that row, otherwise the row for its path.
    package func setLink(_ link: Link?, for key: String) {
        server.withState { $0.links[key] = link }
    }

    /// The current link table.
    package var links: [String: Link] {
        server.withState { $0.links }
    }

    /// Queues behaviours for the next requests matching `key`, in order; after them, normal service resumes.
    ///
    /// A request takes from the queue of its exact target first, then from the queue of its path. Queued
    /// behaviours take precedence over ``setResponder(_:)`` and ``setDefaultBehavior(_:)``. Calling this again
    /// appends to the queue.
    /// - Parameters:
    ///   - behaviors: one behaviour per request.
    ///   - key: an exact request target (`/pub/acc?_ri_=1`) or a bare path (`/pub/acc`).
    public func enqueue(_ behaviors: [Behavior], for key: String) {
        guard !behaviors.isEmpty else { return }
        server.withState { $0.queues[key, default: []].append(contentsOf: behaviors) }
    }

    /// The behaviour of every request that finds nothing queued and no responder's choice (``Behavior/normal``
    /// until set).
    ///
    /// - Parameter behavior: the new default.
    public func setDefaultBehavior(_ behavior: Behavior) {
        server.withState { $0.defaultBehavior = behavior }
    }

    /// Installs (or with `nil` removes) a function choosing the behaviour of each request without a queued one.
    ///
    /// It runs on the connection's thread, outside the stub's lock (it may call the stub), once per request; a
    /// `nil` result falls through to the default behaviour. A responder that captures the stub keeps it alive
    /// until ``shutdown()``, which drops the responder; capture it `unowned` to let `deinit` shut it down.
    /// ```swift
    /// stub.setResponder { _ in Int.random(in: 0..<10) == 0 ? .resetConnection : nil }
    /// ```
    /// - Parameter responder: the function, or `nil`.
    public func setResponder(_ responder: (@Sendable (RecordedRequest) -> Behavior?)?) {
        server.withState { $0.responder = responder }
    }

    /// Installs (or with `nil` removes) a function told of each answer once the stub has sent it: the request and
    /// the status code of the status line actually written, or `nil` when none was (a dropped or reset connection,
    /// ``Behavior/noResponse`` until the client gave up).
    ///
    /// It runs on the connection's thread, outside the stub's lock, after the answer (for an endless or withheld
    /// answer: when the connection ends). Use it to log what a client really got:
    /// ```swift
    /// // snippet: skip
    /// stub.setResponseObserver { request, status in
    ///     log("\(request.method) \(request.target) -> \(status.map(String.init) ?? "no answer")")
    /// }
    /// ```
    /// - Parameter observer: the function, or `nil`.
    package func setResponseObserver(_ observer: (@Sendable (RecordedRequest, Int?) -> Void)?) {
        server.withState { $0.responseObserver = observer }
    }

    /// Every request read (parsed completely) since start or the last `resetRecording()`, in arrival order:
    /// `requests.count` is how many.
    public var requests: [RecordedRequest] {
        server.withState { $0.requests }
    }

    /// How many recorded requests match `key`.
    ///
    /// - Parameter key: an exact request target (`/pub/acc?_ri_=1`) or a bare path (`/pub/acc`): a request
    ///   matches when its target or its path equals the key.
    /// - Returns: the count.
    public func requestCount(for key: String) -> Int {
        server.withState { $0.requests.count { $0.matches(key) } }
    }

    /// The recorded requests matching `key` (exact target or bare path), in arrival order.
    ///
    /// - Parameter key: an exact request target or a bare path.
    /// - Returns: the requests.
    package func requests(for key: String) -> [RecordedRequest] {
        server.withState { $0.requests.filter { $0.matches(key) } }
    }

    /// Waits until at least `count` requests have been recorded, or `timeout` passes.
    ///
    /// Handy before acting on a request that will not complete by itself (``Behavior/noResponse``, a long
    /// ``Behavior/delay(_:then:)``):
    /// ```swift
    /// let resolution = Task { try await manager.resolve(stub.url("/pub/acc?_ri_=1")) }
    /// #expect(await stub.waitForRequests(1))
    /// stub.shutdown()
    /// ```
    /// - Parameters:
    ///   - count: the number of recorded requests to wait for.
    ///   - timeout: the longest wait, 10 seconds by default.
    /// - Returns: `true` when the count was reached, `false` on timeout or cancellation.
    public func waitForRequests(_ count: Int, timeout: Duration = .seconds(10)) async -> Bool {
        await server.waitForRequests(count, timeout: timeout)
    }

    /// How many TCP connections were accepted since start or the last `resetRecording()`: with keep-alive,
    /// fewer than ``requests``.
    package var connectionCount: Int {
        server.withState { $0.connectionCount }
    }

    /// How many requests were refused as unreadable (answered `400`, `431`, `501` or `505`) since start or the
    /// last `resetRecording()`.
    package var badRequestCount: Int {
        server.withState { $0.badRequestCount }
    }

    /// Bytes written to clients by answers (status lines, headers and bodies) since start or the last
    /// `resetRecording()`; an answer's bytes are counted when it ends (for an endless body: when the client
    /// closed the connection).
    package var bytesSent: Int {
        server.withState { $0.bytesSent }
    }

    /// When the writing of the last answer ended, on `ContinuousClock`: its last byte written or, for an answer
    /// the client stopped reading, the write that failed once it closed the connection. `nil` before any answer
    /// ended since start or the last `resetRecording()`. Set together with `bytesSent`.
    ///
    /// A client that stops a transfer closes the connection; this says when the stub noticed:
    /// ```swift
    /// // snippet: skip
    /// _ = try? await resolver.resolve(stub.url("/pub/acc?_ri_=endless"))
    /// let returned = ContinuousClock.now
    /// #expect(await stub.waitForAnswerEnd())
    /// let ended = try #require(stub.lastAnswerEnded)
    /// #expect(ended - returned < .seconds(1))
    /// ```
    package var lastAnswerEnded: ContinuousClock.Instant? {
        server.withState { $0.lastAnswerEnded }
    }

    /// Waits until the writing of an answer has ended (its bytes are in `bytesSent` and its end in
    /// `lastAnswerEnded`), resumed by that event, not by polling.
    ///
    /// - Parameter timeout: How long to wait at most. Default 10 s.
    /// - Returns: `true` once an answer has ended since start or the last `resetRecording()`; `false` at `timeout`
    ///   or when the calling task is cancelled.
    @discardableResult
    package func waitForAnswerEnd(timeout: Duration = .seconds(10)) async -> Bool {
        await server.waitForAnswerEnd(timeout: timeout)
    }

    /// Forgets recorded requests and counters; the link table, queues, default and responder stay.
    package func resetRecording() {
        server.withState { state in
            state.requests.removeAll()
            state.connectionCount = 0
            state.badRequestCount = 0
            state.bytesSent = 0
            state.lastAnswerEnded = nil
        }
    }

    /// Stops the stub: closes the listener and every open connection, interrupting delays, trickles and
    /// ``Behavior/noResponse`` holds.
    ///
    /// Idempotent, and called by `deinit`. It waits at most about two seconds for the stub's threads to finish,
    /// never forever. Recorded requests stay readable afterwards.
    public func shutdown() {
        server.shutdown()
    }
}
