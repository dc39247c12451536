import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP client for byte-level checks the URL loading system hides (keep-alive, pipelining, partial
/// writes, garbage, resets). Every read has a timeout, so a broken stub fails a test instead of hanging it.
final class RawHTTPClient {
    /// A response as read off the wire.
    struct Response {
        var statusLine: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        var status: Int? {
            let parts = statusLine.split(separator: " ")
            return parts.count >= 2 ? Int(parts[1]) : nil
        }

        var bodyText: String { String(decoding: body, as: UTF8.self) }

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// How a read ended.
    enum End: Equatable {
        case data
        case endOfStream
        case reset
        case timedOut
        case failed(Int32)
    }

    struct ConnectFailure: Error {
        var errno: Int32
    }

    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw ConnectFailure(errno: code)
        }
    }

    deinit {
        close(fd)
    }

    /// Sends text as UTF-8, all of it.
    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Sends bytes, all of them.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.send(fd, raw.baseAddress! + offset, bytes.count - offset, flags)
                #else
                Darwin.send(fd, raw.baseAddress! + offset, bytes.count - offset, flags)
                #endif
            }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Reads once, waiting at most `timeout` seconds, appending to the internal buffer.
    func readSome(timeout: Double) -> End {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(timeout * 1000))
        if ready == 0 { return .timedOut }
        if ready < 0 { return .failed(errno) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { return errno == ECONNRESET ? .reset : .failed(errno) }
        if count == 0 { return .endOfStream }
        buffer.append(contentsOf: chunk[..<count])
        return .data
    }

    /// Reads one complete response (head and `Content-Length` body); `nil` when the connection ends first or
    /// nothing complete arrives within `timeout` seconds.
    func readResponse(timeout: Double = 10, expectBody: Bool = true) -> Response? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let response = takeResponse(expectBody: expectBody) { return response }
            let left = deadline.timeIntervalSinceNow
            guard left > 0, readSome(timeout: left) == .data else { return nil }
        }
    }

    /// Reads until the server closes (or resets) the connection, or `timeout` passes; returns how it ended and
    /// everything read.
    func readToEnd(timeout: Double = 10) -> (end: End, bytes: [UInt8]) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (.timedOut, buffer) }
            let end = readSome(timeout: left)
            if end != .data { return (end, buffer) }
        }
    }

    /// Reads until `count` bytes are buffered in total, the connection ends, or `timeout` passes.
    func read(atLeast count: Int, timeout: Double = 10) -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        while buffer.count < count {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, readSome(timeout: left) == .data else { break }
        }
        return buffer
    }

    /// Drops buffered bytes.
    func discardBuffer() {
        buffer.removeAll()
    }

    private func takeResponse(expectBody: Bool) -> Response? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard buffer.count >= 4,
              let end = (0...(buffer.count - 4)).first(where: { Array(buffer[$0..<$0 + 4]) == separator })
        else { return nil }
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = expectBody
            ? Int(headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0
            : 0
        guard buffer.count >= end + 4 + length else { return nil }
        let body = Array(buffer[(end + 4)..<(end + 4 + length)])
        buffer.removeFirst(end + 4 + length)
        return Response(statusLine: statusLine, headers: headers, body: body)
    }
}
