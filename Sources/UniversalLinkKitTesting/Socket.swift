#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the BSD socket calls the stub needs, hiding Glibc / Darwin differences.
///
/// Every function here works on raw descriptors; ownership (who closes what, when) is decided by the callers.
enum Socket {
    /// An error from a socket system call, carrying the call's name and `errno`.
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var errno: Int32

        var description: String {
            "\(call) failed: \(String(cString: strerror(errno))) (errno \(errno))"
        }
    }

    #if canImport(Glibc)
    // The listener is close-on-exec from birth; accepted sockets and the pipe get the flag right after (see
    // `closeOnExec`), as accept4 and pipe2 are not visible from Swift's Glibc module.
    private static let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #endif

    /// Creates a TCP socket bound to 127.0.0.1:`port` (0 = ephemeral) and listening.
    ///
    /// - Returns: the descriptor and the port actually bound.
    static func listen(port: UInt16, backlog: Int32) throws(Failure) -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw Failure(call: "socket", errno: errno) }
        closeOnExec(fd)
        do throws(Failure) {
            var one: Int32 = 1
            // A fixed port (`linux-host serve --port N`) must be reusable right after a previous run.
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            noSigPipe(fd)
            var address = sockaddr_in()
            #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw Failure(call: "bind", errno: errno) }
            #if canImport(Glibc)
            guard Glibc.listen(fd, backlog) == 0 else { throw Failure(call: "listen", errno: errno) }
            #else
            guard Darwin.listen(fd, backlog) == 0 else { throw Failure(call: "listen", errno: errno) }
            #endif
            var actual = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0 else { throw Failure(call: "getsockname", errno: errno) }
            return (fd, UInt16(bigEndian: actual.sin_port))
        } catch {
            close(fd)
            throw error
        }
    }

    /// Accepts one connection; `nil` on a transient failure (the caller polls again).
    static func accept(_ listener: Int32) -> Int32? {
        #if canImport(Glibc)
        let fd = Glibc.accept(listener, nil, nil)
        #else
        let fd = Darwin.accept(listener, nil, nil)
        #endif
        guard fd >= 0 else { return nil }
        closeOnExec(fd)
        noSigPipe(fd)
        var one: Int32 = 1
        // Small JSON answers must not wait for Nagle's algorithm.
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Keeps a descriptor out of child processes: a child holding a copy of a connection would keep it open after
    /// the stub closes it (no FIN for `.dropConnection`, no end of a `Connection: close` answer).
    private static func closeOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// Darwin has no `MSG_NOSIGNAL`; the socket option does the same there.
    private static func noSigPipe(_ fd: Int32) {
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Writes all of `bytes`; `false` once the peer is gone (never raises SIGPIPE).
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let sent = send(fd, base + offset, bytes.count - offset, sendFlags)
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    /// Writes all of `bytes`; `false` once the peer is gone.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { sendAll(fd, $0) }
    }

    /// Reads what is available, up to `capacity` bytes: `nil` on error, an empty array at end of stream.
    static func receive(_ fd: Int32, capacity: Int = 16 * 1024) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: capacity)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, capacity, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            return Array(buffer.prefix(count))
        }
    }

    /// What `wait(for:wake:timeout:)` saw.
    enum Readiness {
        /// The socket is readable (data, end of stream or an error to collect).
        case readable
        /// The wake descriptor fired: the stub is shutting down.
        case woken
        /// The timeout elapsed first.
        case timedOut
    }

    /// Waits until `fd` is readable (if given), `wake` is readable, or `timeout` seconds pass (`nil` = forever).
    static func wait(for fd: Int32?, wake: Int32, timeout: Double?) -> Readiness {
        var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        if let fd { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        let deadline = timeout.map { monotonicNow() + $0 }
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let left = deadline - monotonicNow()
                if left <= 0 { return .timedOut }
                milliseconds = Int32(min((left * 1000).rounded(.up), Double(Int32.max)))
            }
            let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
            if ready < 0 {
                if errno == EINTR { continue }
                return .woken
            }
            if ready == 0 { continue }
            if fds[0].revents != 0 { return .woken }
            if fds.count > 1, fds[1].revents != 0 { return .readable }
        }
    }

    /// Seconds on a monotonic clock, for deadlines that must not jump with the wall clock.
    static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }

    /// Makes the next `close` send a TCP RST instead of a FIN.
    static func setLingerZero(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Shuts both directions down: wakes a thread blocked on this socket without freeing the descriptor.
    static func shutdownBoth(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
        #else
        _ = Darwin.shutdown(fd, SHUT_RDWR)
        #endif
    }

    /// Shuts the sending direction down: the peer reads end of stream, we can still read what it sends.
    static func shutdownWrite(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        #else
        _ = Darwin.shutdown(fd, SHUT_WR)
        #endif
    }

    /// Closes a descriptor.
    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// A pipe whose read end becomes readable, for good, once one byte is written: the shutdown signal.
    static func makePipe() throws(Failure) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure(call: "pipe", errno: errno) }
        closeOnExec(fds[0])
        closeOnExec(fds[1])
        return (fds[0], fds[1])
    }

    /// Writes one byte to a pipe.
    static func signal(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }
}
