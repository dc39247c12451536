import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
internal import _LinkKitLocking

/// The production ``LinkTransport``: one reused `URLSession` with an ephemeral configuration.
///
/// - No cookies are sent or stored and nothing is cached: a click-tracking request must reach the server.
/// - Redirects are not followed here; the resolver follows them after checking its policy.
/// - The body is capped while it is received: a 20 MiB answer, with or without a `Content-Length`, is refused as
///   soon as the first bytes over the cap arrive, never held in memory, and the call returns then rather than when
///   FoundationNetworking has wound the transfer down.
/// - Cancellation cancels the `URLSessionTask`. A ``LinkResolver`` using this transport hands it the resolution's
///   deadline: the transport then resumes the resolver at the deadline itself (or at once when the resolving task
///   is cancelled) and cancels the request, without the resolver needing a task or timer of its own. The library
///   enforces deadlines because how FoundationNetworking honours its own timeouts has varied between toolchains;
///   the session-level timeouts below are a backstop only.
///
/// Create one transport and reuse it for every link: connections are kept alive between resolutions.
public final class URLSessionTransport: LinkTransport {
    /// Session settings.
    public struct Configuration: Sendable, Hashable {
        /// The most connections opened to one host at once. Default 16, so a burst of links resolves in parallel.
        public var maximumConnectionsPerHost: Int
        /// Session-level idle timeout, a backstop behind the resolver's deadline. Default 30 s.
        public var requestTimeout: TimeInterval
        /// Session-level total timeout, a backstop behind the resolver's deadline. Default 60 s.
        public var resourceTimeout: TimeInterval

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - maximumConnectionsPerHost: Parallel connections per host.
        ///   - requestTimeout: Idle timeout backstop.
        ///   - resourceTimeout: Total timeout backstop.
        public init(maximumConnectionsPerHost: Int = 16, requestTimeout: TimeInterval = 30, resourceTimeout: TimeInterval = 60) {
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.requestTimeout = requestTimeout
            self.resourceTimeout = resourceTimeout
        }
    }

    private let session: URLSession
    private let delegate: SessionDelegate

    /// Creates a transport with its own session.
    ///
    /// - Parameter configuration: Session settings.
    public init(configuration: Configuration = .init()) {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maximumConnectionsPerHost
        sessionConfiguration.timeoutIntervalForRequest = configuration.requestTimeout
        sessionConfiguration.timeoutIntervalForResource = configuration.resourceTimeout
        let delegate = SessionDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends the request on the shared session; see the type's documentation for the guarantees.
    public func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse {
        try await perform(request, maxBodyBytes: maxBodyBytes, deadline: nil)
    }

    /// Requests in flight, whose continuation the answer, the deadline or a cancellation has yet to resume.
    var pendingCount: Int { delegate.pendingCount }

    private func perform(
        _ request: TransportRequest, maxBodyBytes: Int, deadline: (instant: ContinuousClock.Instant, clock: LinkClock)?
    ) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        urlRequest.httpShouldHandleCookies = false
        for (name, value) in request.headerFields {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let task = session.dataTask(with: urlRequest)
        let id = task.taskIdentifier
        let taskBox = TaskBox(task)
        let delegate = delegate
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TransportResponse, any Error>) in
                delegate.register(id, maxBodyBytes: maxBodyBytes, continuation: continuation)
                if let deadline {
                    // The caller waits on this continuation alone, so the deadline resumes it here, whatever
                    // libcurl is doing, and the request is abandoned.
                    let timer = DeadlineTimer(at: deadline.instant, clock: deadline.clock) {
                        if delegate.abandon(id, with: DeadlineExceeded()) { taskBox.cancel() }
                    }
                    delegate.attach(timer, to: id)
                    // Cancelled before the handler below was installed: it has found nothing to abandon.
                    if Task.isCancelled {
                        _ = delegate.abandon(id, with: CancellationError())
                        taskBox.cancel()
                        return
                    }
                }
                task.resume()
            }
        } onCancel: {
            // With a deadline the caller returns at once; without one (the public API) the task's completion
            // reports the cancellation, as before.
            if deadline != nil { _ = delegate.abandon(id, with: CancellationError()) }
            taskBox.cancel()
        }
    }
}

extension URLSessionTransport: DeadlineEnforcingTransport {
    /// Sends the request, resuming the caller by the deadline even if libcurl has not finished: the request is
    /// then cancelled, not awaited.
    func send(
        _ request: TransportRequest, maxBodyBytes: Int, deadline: ContinuousClock.Instant, clock: LinkClock
    ) async throws -> TransportResponse {
        guard clock.now < deadline else { throw DeadlineExceeded() }
        return try await perform(request, maxBodyBytes: maxBodyBytes, deadline: (deadline, clock))
    }
}

/// Lets the cancellation handler reach the task without capturing a non-Sendable reference on every platform.
private final class TaskBox: Sendable {
    private let task: Mutex<URLSessionTask?>
    init(_ task: URLSessionTask) { self.task = Mutex(task) }
    func cancel() { task.withTrackedLock { $0?.cancel() } }
}

/// Per-task receive state, keyed by task identifier; the delegate outlives every task of the session.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct Pending {
        var continuation: CheckedContinuation<TransportResponse, any Error>
        var maxBodyBytes: Int
        var response: HTTPURLResponse?
        var body = Data()
        var timer: DeadlineTimer?
    }

    private let pending = Mutex<[Int: Pending]>([:])

    var pendingCount: Int { pending.withTrackedLock { $0.count } }

    func register(_ id: Int, maxBodyBytes: Int, continuation: CheckedContinuation<TransportResponse, any Error>) {
        pending.withTrackedLock { $0[id] = Pending(continuation: continuation, maxBodyBytes: maxBodyBytes) }
    }

    /// Keeps the request's deadline timer, to be cancelled when the request ends first.
    func attach(_ timer: DeadlineTimer, to id: Int) {
        let attached = pending.withTrackedLock { state -> Bool in
            guard state[id] != nil else { return false }
            state[id]?.timer = timer
            return true
        }
        if !attached { timer.cancel() }
    }

    /// Resumes the request's caller with `error` now, if nothing else has; later callbacks for it are ignored.
    ///
    /// - Returns: Whether this call resumed the caller.
    func abandon(_ id: Int, with error: any Error) -> Bool {
        guard let entry = pending.withTrackedLock({ $0.removeValue(forKey: id) }) else { return false }
        entry.timer?.cancel()
        entry.continuation.resume(throwing: error)
        return true
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let id = dataTask.taskIdentifier
        let cap = pending.withTrackedLock { state -> Int? in
            state[id]?.response = response as? HTTPURLResponse
            return state[id]?.maxBodyBytes
        }
        guard let cap, response.expectedContentLength > Int64(cap) else {
            completionHandler(.allow)
            return
        }
        completionHandler(.cancel)
        // FoundationNetworking ignores the disposition (it cannot pause libcurl), so cancel the task ourselves.
        refuse(dataTask, cap: cap)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        let overCap = pending.withTrackedLock { state -> Int? in
            // Read and mutated in place: a copy of the entry held here would make appending copy the body.
            guard let received = state[id]?.body.count, let cap = state[id]?.maxBodyBytes else { return nil }
            if received + data.count > cap { return cap }
            state[id]?.body.append(data)
            return nil
        }
        if let overCap { refuse(dataTask, cap: overCap) }
    }

    /// Fails a request whose body is over the cap at once, then cancels it.
    ///
    /// The caller does not wait for the task to end: FoundationNetworking on Linux keeps a cancelled transfer
    /// running while data keeps arriving fast (against an endless body on loopback, `didCompleteWithError` came
    /// 0.1 to 49 s after `cancel()`, gigabytes later). The task's late callbacks find no entry and are ignored.
    private func refuse(_ dataTask: URLSessionDataTask, cap: Int) {
        _ = abandon(dataTask.taskIdentifier, with: TransportError(.bodyTooLarge, detail: "body over \(cap) bytes"))
        dataTask.cancel()
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // The resolver follows redirects itself, after checking each target against its policy.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = pending.withTrackedLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        entry.timer?.cancel()
        if let error {
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain, nsError.code == NSURLErrorCancelled {
                entry.continuation.resume(throwing: CancellationError())
                return
            }
            // A timeout is not "no answer": the request may have reached the server, so it must not be retried.
            let kind: TransportError.Kind =
                nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorTimedOut ? .timedOut
                : entry.response == nil ? .noAnswer : .failedAfterAnswer
            entry.continuation.resume(throwing: TransportError(kind, detail: nsError.localizedDescription))
            return
        }
        guard let response = entry.response else {
            entry.continuation.resume(throwing: TransportError(.noAnswer, detail: "no HTTP response"))
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String {
                headers[name.lowercased()] = value
            }
        }
        entry.continuation.resume(returning: TransportResponse(statusCode: response.statusCode, headerFields: headers, body: entry.body))
    }
}
