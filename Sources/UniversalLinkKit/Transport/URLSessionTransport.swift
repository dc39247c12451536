import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
internal import _LinkKitLocking

/// A ``LinkTransport`` on one reused `URLSession` with an ephemeral configuration: the default on Apple
/// platforms, an option on Linux (where ``CurlTransport`` is the default).
///
/// - No cookies are sent or stored and nothing is cached: a click-tracking request must reach the server.
/// - Redirects are not followed here; the resolver follows them after checking its policy.
/// - The body is capped while it is received, and an answer whose `Content-Length` is over the cap, or a 2xx
///   answer with a `Content-Encoding`, is cancelled at its headers. The request asks for `identity` encoding.
/// - The host's addresses are checked before the request (see ``TransportRequest/allowsLocalAddresses``), but
///   `URLSession` resolves the name again to connect: a DNS server that answers differently the second time
///   (rebinding) is not caught. ``CurlTransport`` connects to the address it checked.
/// - Cancellation resumes the caller at once and cancels the `URLSessionTask`.
///
/// Limits on Linux, where FoundationNetworking runs on libcurl and cannot be configured further: libcurl may
/// re-send a request by itself when a reused connection dies before an answer, so a link can reach a resetting
/// server more than twice, with no bound (see the article "The resolution, and what the policy refuses");
/// FoundationNetworking inflates a compressed answer
/// before the cap counts it; and a cancelled fast transfer may go on being read in the background. ``CurlTransport`` has none of these.
///
/// Create one transport and reuse it for every link: connections are kept alive between resolutions.
package final class URLSessionTransport: LinkTransport {
    /// Session settings.
    package struct Configuration: Sendable, Hashable {
        /// The most connections opened to one host at once. Default 16, so a burst of links resolves in parallel.
        package var maximumConnectionsPerHost: Int

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - maximumConnectionsPerHost: Parallel connections per host.
        package init(maximumConnectionsPerHost: Int = 16) {
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
        }
    }

    private let session: URLSession
    private let delegate: SessionDelegate
    private let nameResolver: NameResolver

    /// Creates a transport with its own session.
    ///
    /// - Parameter configuration: Session settings.
    package convenience init(configuration: Configuration = .init()) {
        self.init(configuration: configuration, nameResolver: .system)
    }

    /// A transport that resolves host names for the address check with `nameResolver`.
    package init(configuration: Configuration = .init(), nameResolver: NameResolver) {
        self.nameResolver = nameResolver
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maximumConnectionsPerHost
        // Backstops only: the resolver's deadline ends every request long before.
        sessionConfiguration.timeoutIntervalForRequest = 30
        sessionConfiguration.timeoutIntervalForResource = 60
        let delegate = SessionDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Invalidates the session: requests in flight finish, later sends fail.
    package func shutdown() {
        session.finishTasksAndInvalidate()
    }

    /// Sends the request on the shared session; see the type's documentation for the guarantees.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - maxBodyBytes: The largest body accepted.
    /// - Returns: The answer.
    /// - Throws: ``TransportError`` or `CancellationError`.
    package func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse {
        if let host = request.url.host(percentEncoded: false), !host.isEmpty {
            _ = try await CheckedAddress.resolve(host, with: nameResolver, allowsLocalAddresses: request.allowsLocalAddresses)
        }
        try Task.checkCancellation()
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "GET"
        urlRequest.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        urlRequest.httpShouldHandleCookies = false
        // Replaces the `deflate, gzip, br, zstd` libcurl would send under FoundationNetworking.
        urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        for (name, value) in request.headerFields {
            urlRequest.addValue(value, forHTTPHeaderField: name)
        }
        let task = session.dataTask(with: urlRequest)
        let id = task.taskIdentifier
        let taskBox = TaskBox(task)
        let delegate = delegate
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TransportResponse, any Error>) in
                delegate.register(id, maxBodyBytes: maxBodyBytes, continuation: continuation)
                // Cancelled before the handler below was installed: it has found nothing to abandon.
                if Task.isCancelled {
                    _ = delegate.abandon(id, with: CancellationError())
                    taskBox.cancel()
                    return
                }
                task.resume()
            }
        } onCancel: {
            // The caller returns at once; FoundationNetworking winds the task down in its own time.
            _ = delegate.abandon(id, with: CancellationError())
            taskBox.cancel()
        }
    }

    /// Requests in flight, whose continuation the answer or a cancellation has yet to resume.
    var pendingCount: Int { delegate.pendingCount }
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
    }

    private let pending = Mutex<[Int: Pending]>([:])

    var pendingCount: Int { pending.withTrackedLock { $0.count } }

    func register(_ id: Int, maxBodyBytes: Int, continuation: CheckedContinuation<TransportResponse, any Error>) {
        pending.withTrackedLock { $0[id] = Pending(continuation: continuation, maxBodyBytes: maxBodyBytes) }
    }

    /// Resumes the request's caller with `error` now, if nothing else has; later callbacks for it are ignored.
    ///
    /// - Returns: Whether this call resumed the caller.
    func abandon(_ id: Int, with error: any Error) -> Bool {
        guard let entry = pending.withTrackedLock({ $0.removeValue(forKey: id) }) else { return false }
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
        guard let cap else {
            completionHandler(.allow)
            return
        }
        let http = response as? HTTPURLResponse
        let encoding = (http?.value(forHTTPHeaderField: "Content-Encoding") ?? "").lowercased()
        if let http, (200..<300).contains(http.statusCode), !encoding.isEmpty, encoding != "identity" {
            completionHandler(.cancel)
            _ = abandon(id, with: TransportError(.encodedBody, detail: "Content-Encoding \(encoding)"))
            dataTask.cancel()
            return
        }
        guard response.expectedContentLength > Int64(cap) else {
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
        if let error {
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain, nsError.code == NSURLErrorCancelled {
                entry.continuation.resume(throwing: CancellationError())
                return
            }
            // A timeout is not "no answer": the request may have reached the server, so it must not be retried. A
            // certificate or handshake failure is `tls`: the server answers the same way every time.
            let certificateCodes = [
                NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
                NSURLErrorServerCertificateNotYetValid, NSURLErrorServerCertificateHasUnknownRoot,
                NSURLErrorSecureConnectionFailed, NSURLErrorClientCertificateRejected,
            ]
            let kind: TransportError.Kind =
                nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorTimedOut ? .timedOut
                : nsError.domain == NSURLErrorDomain && certificateCodes.contains(nsError.code) ? .tls
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
