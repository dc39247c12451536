import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The tests' HTTP client for `link-service` on loopback: HTTP/1.1, one connection a request (`Connection: close`),
/// no redirect followed, on a thread of its own.
///
/// Not URLSession: a test's time limit cancels what it has in flight, and cancelling a FoundationNetworking task
/// while its session completes it deadlocks (the task's cancellation lock against the session's queue), which stops
/// two threads of Swift's cooperative pool, all it has on two cores: every other test then hangs. A request here
/// ignores cancellation and ends within its timeout.
enum LoopbackHTTP {
    /// An answer.
    struct Response: Sendable {
        /// The status code.
        let status: Int
        /// The header fields, in order, names as sent.
        let headers: [(name: String, value: String)]
        /// The body (chunked transfer coding removed).
        let body: Data

        /// The first value of the header field `name` (any case).
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// What went wrong: the connection, the timeout, or an answer that is not HTTP.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends a request to `url` (`http://127.0.0.1:PORT/...`) and reads the whole answer.
    ///
    /// - Parameters:
    ///   - url: The address.
    ///   - method: `GET` by default; `POST` when there is a body.
    ///   - headers: More header fields.
    ///   - body: The body, sent with its `Content-Length`.
    ///   - timeout: The longest the connection may stay silent.
    static func send(
        _ url: String, method: String? = nil, headers: [(String, String)] = [], body: Data? = nil,
        timeout: TimeInterval = 10
    ) async throws -> Response {
        guard let parts = URLComponents(string: url), let host = parts.host, let port = parts.port else {
            throw Failure(description: "not an http://host:port/ address: \(url)")
        }
        let target = (parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath)
            + (parts.percentEncodedQuery.map { "?" + $0 } ?? "")
        var head = "\(method ?? (body == nil ? "GET" : "POST")) \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        let request = Array((head + "\r\n").utf8) + Array(body ?? Data())
        let address = host == "localhost" ? "127.0.0.1" : host
        let received: Result<[UInt8], Failure> = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: exchange(request, address: address, port: port, timeout: timeout))
            }
        }
        return try parse(received.get())
    }

    /// Connects, sends `request` and reads until the server closes the connection.
    private static func exchange(_ request: [UInt8], address: String, port: Int, timeout: TimeInterval) -> Result<[UInt8], Failure> {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return .failure(Failure(description: "socket: errno \(errno)")) }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
        socketAddress.sin_addr.s_addr = inet_addr(address)
        let connected = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return .failure(Failure(description: "cannot connect to \(address):\(port): errno \(errno)")) }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return .failure(Failure(description: "sending to \(address):\(port): errno \(errno)")) }
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return .success(received) }
            if count < 0 {
                if errno == EINTR { continue }
                let what = errno == EAGAIN || errno == EWOULDBLOCK ? "no answer within \(timeout) s" : "errno \(errno)"
                return .failure(Failure(description: "reading from \(address):\(port): \(what)"))
            }
            received += buffer[..<count]
        }
    }

    /// The status line, header fields and body of a whole answer.
    private static func parse(_ bytes: [UInt8]) throws -> Response {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw Failure(description: "the answer has no complete head: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines[0].split(separator: " ")
        guard statusWords.count >= 2, statusWords[0].hasPrefix("HTTP/1."), let status = Int(statusWords[1]) else {
            throw Failure(description: "not an HTTP status line: \(lines[0])")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let response = Response(status: status, headers: headers, body: Data())
        var body = Array(bytes[(end + separator.count)...])
        if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            body = try unchunk(body)
        } else if let length = response.header("Content-Length").flatMap(Int.init), length < body.count {
            body = Array(body.prefix(length))
        }
        return Response(status: status, headers: headers, body: Data(body))
    }

    /// A chunked body's data.
    private static func unchunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var data: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = bytes[index...].indices.first(where: { bytes[$0...].starts(with: [13, 10]) }),
                  let size = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first
                      .flatMap({ Int($0, radix: 16) })
            else { throw Failure(description: "a malformed chunk") }
            let start = lineEnd + 2
            if size == 0 { return data }
            guard start + size <= bytes.count else { throw Failure(description: "a chunk cut short") }
            data += bytes[start..<(start + size)]
            index = start + size + 2
            guard index <= bytes.count else { throw Failure(description: "a chunk cut short") }
        }
    }
}
