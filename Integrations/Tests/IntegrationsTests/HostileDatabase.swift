import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A loopback "database" that answers a connection's startup with a message declaring `declaredLength` bytes, then
/// streams zeros as fast as the client takes them, until the client closes; it counts, per connection, the bytes the
/// client's side accepted (what the kernel took from `send`, with the server's send buffer kept small so that the
/// count is what reached the client). An SSLRequest is answered with `tlsAnswer`, then the startup is read as after
/// any SSLRequest. Threads of its own block on the sockets; ``close()`` ends the accept loop.
final class HostileDatabase: Sendable {
    /// What one connection did.
    struct Connection: Sendable {
        /// Whether the client sent a startup message (after the TLS answer, if it asked).
        var startedUp: Bool
        /// The bytes `send` accepted for the client, the hostile header included.
        var accepted: Int
    }

    private struct State {
        var connections: [Connection] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<[Connection], Never>)] = []
    }

    let port: Int
    private let listener: Int32
    private let state = Mutex(State())

    init(declaredLength: UInt32, tlsAnswer: UInt8 = UInt8(ascii: "N")) throws {
        let (descriptor, port) = try SilentListener.bound(listening: true)
        listener = descriptor
        self.port = port
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                Thread.detachNewThread { [self] in
                    let connection = Self.serve(client, declaredLength: declaredLength, tlsAnswer: tlsAnswer)
                    Glibc.close(client)
                    finished(connection)
                }
            }
        }
    }

    /// Ends the accept loop.
    func close() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
    }

    /// The first `count` connections, once each has ended.
    func connections(_ count: Int) async -> [Connection] {
        await withCheckedContinuation { continuation in
            let ready: [Connection]? = state.withLock { state in
                if state.connections.count >= count { return Array(state.connections.prefix(count)) }
                state.waiters.append((count, continuation))
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func finished(_ connection: Connection) {
        let ready = state.withLock { state in
            state.connections.append(connection)
            let (ready, waiting) = (state.waiters.filter { $0.count <= state.connections.count }, state.waiters.filter { $0.count > state.connections.count })
            state.waiters = waiting
            return ready.map { ($0.continuation, Array(state.connections.prefix($0.count))) }
        }
        for (continuation, connections) in ready { continuation.resume(returning: connections) }
    }

    private static func serve(_ client: Int32, declaredLength: UInt32, tlsAnswer: UInt8) -> Connection {
        var size: Int32 = 16 * 1024
        setsockopt(client, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        guard let first = readMessage(client) else { return Connection(startedUp: false, accepted: 0) }
        if first == sslRequest {
            guard send(client, [tlsAnswer], 1, Int32(MSG_NOSIGNAL)) == 1, tlsAnswer == UInt8(ascii: "N"),
                readMessage(client) != nil
            else { return Connection(startedUp: false, accepted: 0) }
        }
        var accepted = 0
        let header: [UInt8] = [UInt8(ascii: "R")] + withUnsafeBytes(of: declaredLength.bigEndian, Array.init)
        let body = [UInt8](repeating: 0, count: 64 * 1024)
        var chunk = header
        while true {
            let sent = chunk.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return Connection(startedUp: true, accepted: accepted) }
            accepted += sent
            chunk = sent < chunk.count ? Array(chunk[sent...]) : body
        }
    }

    /// The SSLRequest's body: its code, 1234 5679.
    private static let sslRequest: [UInt8] = [0x04, 0xD2, 0x16, 0x2F]

    /// One client message's body (a startup has no type byte: a 4-byte length, then the rest).
    private static func readMessage(_ client: Int32) -> [UInt8]? {
        guard let head = readExactly(client, 4) else { return nil }
        let length = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        guard length >= 4, length < 10_000 else { return nil }
        return readExactly(client, length - 4)
    }

    private static func readExactly(_ client: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var read = 0
        while read < count {
            let got = bytes.withUnsafeMutableBytes { recv(client, $0.baseAddress! + read, count - read, 0) }
            guard got > 0 else { return nil }
            read += got
        }
        return bytes
    }
}
