import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Resolves a host name to its addresses, for the transport's address check.
///
/// The transports that connect themselves (``CurlTransport``, ``URLSessionTransport``) resolve every host
/// name through one of these before connecting and refuse the request when an address is not public. The
/// default is the system resolver (`getaddrinfo`, on a thread outside Swift's cooperative pool); tests inject
/// a table so that names map to the loopback stub without a DNS server.
package struct NameResolver: Sendable {
    private let body: @Sendable (String) async throws -> [String]

    /// Creates a resolver from a closure.
    ///
    /// - Parameter resolve: Receives a host name, returns its addresses as numeric text (`93.184.216.34`,
    ///   `2606:2800:220:1::1`); an empty list or a thrown error means the name does not resolve.
    package init(_ resolve: @escaping @Sendable (String) async throws -> [String]) {
        self.body = resolve
    }

    /// The addresses of `host`.
    ///
    /// - Parameter host: A host name.
    /// - Returns: Its addresses as numeric text.
    /// - Throws: Whatever the resolver throws.
    package func addresses(of host: String) async throws -> [String] {
        try await body(host)
    }

    /// A resolver that answers from a table (names compared case-insensitively); other names do not resolve.
    ///
    /// - Parameter table: Addresses by host name.
    /// - Returns: The resolver.
    package static func table(_ table: [String: [String]]) -> NameResolver {
        let lowered = Dictionary(table.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        return NameResolver { lowered[$0.lowercased()] ?? [] }
    }

    /// The system resolver: `getaddrinfo`, run on a Dispatch thread so that it never blocks the cooperative pool.
    package static var system: NameResolver {
        NameResolver { host in
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try systemAddresses(of: host) })
                }
            }
        }
    }

    private static func systemAddresses(of host: String) throws -> [String] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc) || canImport(Musl)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw TransportError(.noAnswer, detail: "\(host) does not resolve (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let current = node {
            if let address = current.pointee.ai_addr {
                var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                let family = Int32(address.pointee.sa_family)
                let text: String? = buffer.withUnsafeMutableBufferPointer { out in
                    let result: UnsafePointer<CChar>?
                    if family == AF_INET {
                        result = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                            var raw = v4.pointee.sin_addr
                            return inet_ntop(AF_INET, &raw, out.baseAddress, socklen_t(out.count))
                        }
                    } else if family == AF_INET6 {
                        result = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                            var raw = v6.pointee.sin6_addr
                            return inet_ntop(AF_INET6, &raw, out.baseAddress, socklen_t(out.count))
                        }
                    } else {
                        result = nil
                    }
                    return result.map { String(cString: $0) }
                }
                if let text, !addresses.contains(text) { addresses.append(text) }
            }
            node = current.pointee.ai_next
        }
        return addresses
    }
}
