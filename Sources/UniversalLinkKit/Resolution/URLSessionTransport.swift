import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import _LinkKitLocking

/// The production ``LinkTransport``: one reused `URLSession` with an ephemeral configuration.
///
/// - No cookies are sent or stored and nothing is cached: a click-tracking request must reach the server.
/// - Redirects are not followed here; the resolver follows them after checking its policy.
/// - The body is capped while it is received: a 20 MiB answer, with or without a `Content-Length`, is refused as
///   soon as the first bytes over the cap arrive, never held in memory, and the call returns then rather than when
///   FoundationNetworking has wound the transfer down.
/// - Cancellation cancels the `URLSessionTask`: the resolver enforces its deadline that way, because how
///   FoundationNetworking honours its own timeouts has varied between toolchains; the session-level timeouts below
///   are a backstop only.
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
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        urlRequest.httpShouldHandleCookies = false
        for (name, value) in request.headerFields {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let task = session.dataTask(with: urlRequest)
        let taskBox = TaskBox(task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TransportResponse, any Error>) in
                delegate.register(task.taskIdentifier, maxBodyBytes: maxBodyBytes, continuation: continuation)
                task.resume()
            }
        } onCancel: {
            taskBox.cancel()
        }
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
    }

    private let pending = Mutex<[Int: Pending]>([:])

    func register(_ id: Int, maxBodyBytes: Int, continuation: CheckedContinuation<TransportResponse, any Error>) {
        pending.withTrackedLock { $0[id] = Pending(continuation: continuation, maxBodyBytes: maxBodyBytes) }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let refused = pending.withTrackedLock { state -> Pending? in
            guard var entry = state[dataTask.taskIdentifier] else { return nil }
            if response.expectedContentLength > Int64(entry.maxBodyBytes) {
                return state.removeValue(forKey: dataTask.taskIdentifier)
            }
            entry.response = response as? HTTPURLResponse
            state[dataTask.taskIdentifier] = entry
            return nil
        }
        completionHandler(refused == nil ? .allow : .cancel)
        refused.map(Self.refuse)
    }

    /// Answers a task whose body is over the cap at once, without waiting for the task to end.
    ///
    /// FoundationNetworking on Linux keeps a cancelled transfer running while its callbacks drain: against a fast
    /// endless body, `didCompleteWithError` came 0.1 to 30 s after `cancel()`, gigabytes later. The caller must not
    /// wait for that; the task's late callbacks then find no entry and are ignored.
    private static func refuse(_ entry: Pending) {
        entry.continuation.resume(throwing: TransportError(.bodyTooLarge, detail: "body over \(entry.maxBodyBytes) bytes"))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let refused = pending.withTrackedLock { state -> Pending? in
            guard var entry = state[dataTask.taskIdentifier] else { return nil }
            if entry.body.count + data.count > entry.maxBodyBytes {
                return state.removeValue(forKey: dataTask.taskIdentifier)
            }
            entry.body.append(data)
            state[dataTask.taskIdentifier] = entry
            return nil
        }
        guard let refused else { return }
        dataTask.cancel()
        Self.refuse(refused)
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
