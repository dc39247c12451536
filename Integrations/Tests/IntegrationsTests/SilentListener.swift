import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback port that accepts TCP connections (the kernel completes the handshake) and never answers: a database
/// that hangs. ``closedPort()`` gives a port nothing listens on: a database that is down.
final class SilentListener: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try Self.bound(listening: true)
    }

    func close() { _ = Glibc.close(descriptor) }

    /// A port that was free a moment ago and has no listener.
    static func closedPort() throws -> Int {
        let (descriptor, port) = try bound(listening: false)
        _ = Glibc.close(descriptor)
        return port
    }

    /// A TCP socket bound to a free loopback port (listening, when asked); the descriptor and the port.
    static func bound(listening: Bool) throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && (!listening || listen(descriptor, 16) == 0)
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else { throw POSIXError(.EADDRINUSE) }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
