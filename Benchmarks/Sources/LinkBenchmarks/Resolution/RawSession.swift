import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The baseline: a plain `URLSession` GET of the same URL with the same headers and the same session settings as
/// `URLSessionTransport` (ephemeral, no cookies, no cache, 16 connections per host), body kept, nothing decoded.
struct RawSession: Sendable {
    let session: URLSession

    static func configuration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.timeoutIntervalForRequest = 30
        configuration.timeoutIntervalForResource = 60
        return configuration
    }

    init() {
        session = URLSession(configuration: Self.configuration())
    }

    /// The request the resolver sends: JSON `Accept` and the resolver's `User-Agent`.
    static func request(_ url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("ResponsysPubWebResolver (CPU iPhone OS like Mac OS X)", forHTTPHeaderField: "User-Agent")
        request.httpShouldHandleCookies = false
        return request
    }

    /// GETs `url`; returns the status code.
    func get(_ url: URL) async throws -> Int {
        try await Self.get(url, on: session)
    }

    static func get(_ url: URL, on session: URLSession) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request(url)) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    withExtendedLifetime(data) {}
                    continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? 0)
                }
            }
            task.resume()
        }
    }

    /// What the Responsys guide's sample does for every link: a new ephemeral session, one request, then the
    /// session is let go.
    static func getWithNewSession(_ url: URL) async throws -> Int {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        return try await get(url, on: session)
    }
}
