import Foundation
import UniversalLinkKit

/// Sends requests for branded hosts to a ``ResponseHandlerStub`` on loopback, like `curl --resolve`.
///
/// With it, tests and demos use real-looking tracking URLs (`https://news.example.com/pub/acc?...`) under the
/// default `ResolutionPolicy` (https only, no loopback), while the bytes travel through a real transport (the
/// platform's default, `LinkResolver.defaultTransport()`, unless another is given) to the stub. Only scheme, host
/// and port are rewritten: path and query reach the stub byte for byte. Requests for other hosts go to the wrapped
/// transport unchanged.
///
/// ```swift
/// let stub = try ResponseHandlerStub(links: ResponseHandlerStub.demoLinks)
/// let transport = StubHostTransport(hosts: ["news.example.com"], stub: stub)
/// let manager = LinkManager(transport: transport)
/// ```
public struct StubHostTransport: LinkTransport {
    private let hosts: Set<String>
    private let base: URL
    private let transport: any LinkTransport

    /// Creates the transport.
    ///
    /// - Parameters:
    ///   - hosts: Host names (case-insensitive) whose requests go to the stub.
    ///   - stub: The stub.
    ///   - transport: The transport that sends the rewritten requests; by default (`nil`) a new one of the
    ///     platform's default kind (`CurlTransport` on Linux), which ``shutdown()`` releases.
    public init(hosts: Set<String>, stub: ResponseHandlerStub, transport: (any LinkTransport)? = nil) {
        self.hosts = Set(hosts.map { $0.lowercased() })
        self.base = stub.baseURL
        self.transport = transport ?? LinkResolver.defaultTransport()
    }

    /// Rewrites the request's URL when its host is mapped, then sends it.
    public func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse {
        var request = request
        if let host = request.url.host(percentEncoded: true)?.lowercased(), hosts.contains(host) {
            var target = request.url.path(percentEncoded: true)
            if target.isEmpty { target = "/" }
            if let query = request.url.query(percentEncoded: true) { target += "?" + query }
            if let mapped = URL(string: base.absoluteString + target) {
                request.url = mapped
                // The mapped host stands for the loopback stub: its address is the point.
                request.allowsLocalAddresses = true
            }
        }
        return try await transport.send(request, maxBodyBytes: maxBodyBytes)
    }

    /// Shuts the wrapped transport down.
    public func shutdown() {
        transport.shutdown()
    }
}
