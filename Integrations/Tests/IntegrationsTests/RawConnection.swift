import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a loopback port, for what an HTTP client will not do: stay idle, send half a head.
final class RawConnection: Sendable {
    let descriptor: Int32

    /// Connects to `127.0.0.1:port`; `nil` when the connection fails.
    init?(port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Sends `text`.
    func send(_ text: String) {
        _ = send(Array(text.utf8))
    }

    /// Sends all of `bytes`; `false` when the connection failed first.
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Waits (on a thread of its own, at most `limit` seconds) until the server closes the connection; returns
    /// whether it did, and what it sent before.
    func waitForClose(limit: Int = 20) async -> (closed: Bool, received: String) {
        let (closed, received) = await readUntilClose(limit: limit)
        return (closed, String(decoding: received, as: UTF8.self))
    }

    /// ``waitForClose(limit:)``'s bytes as they came.
    func readUntilClose(limit: Int) async -> (closed: Bool, received: [UInt8]) {
        let descriptor = descriptor
        // A thread, not a task: a blocking `recv` on one of the few threads of Swift's cooperative pool (two on a
        // two-core machine) would hold up every other test's tasks for as long as it waits.
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var timeout = timeval(tv_sec: limit, tv_usec: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 16_384)
                while true {
                    let count = recv(descriptor, &buffer, buffer.count, 0)
                    if count == 0 { return continuation.resume(returning: (true, received)) }
                    if count < 0 { return continuation.resume(returning: (errno == ECONNRESET, received)) }
                    received += buffer[0..<count]
                }
            }
        }
    }
}
