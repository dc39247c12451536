import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URL loading system as the resolver uses it (FoundationNetworking / libcurl on Linux): an ephemeral session,
/// optionally refusing redirects so tests can see a `302` itself.
final class HTTPClient: Sendable {
    /// What one request produced.
    struct Result: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        var text: String { String(decoding: body, as: UTF8.self) }

        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    /// Refuses every redirect, so the `3xx` answer itself reaches the completion handler.
    private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    let session: URLSession

    init(followRedirects: Bool = true, timeout: Double = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = followRedirects
            ? URLSession(configuration: configuration)
            : URLSession(configuration: configuration, delegate: RedirectRefuser(), delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends a request like the resolver does (`Accept: application/json` unless `acceptJSON` is false).
    func get(_ url: URL, acceptJSON: Bool = true, method: String = "GET") async throws -> Result {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if acceptJSON {
            request.setValue("application/json", forHTTPHeaderField: "Accept")
        }
        request.setValue("ResponsysPubWebResolver (CPU iPhone OS like Mac OS X)", forHTTPHeaderField: "User-Agent")
        return try await send(request)
    }

    /// Sends any request and waits for its completion.
    func send(_ request: URLRequest) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let response = response as? HTTPURLResponse {
                    var headers: [String: String] = [:]
                    for (key, value) in response.allHeaderFields {
                        headers["\(key)"] = "\(value)"
                    }
                    continuation.resume(returning: Result(
                        status: response.statusCode, headers: headers, body: data ?? Data()))
                } else {
                    continuation.resume(throwing: URLError(.badServerResponse))
                }
            }
            task.resume()
        }
    }
}
