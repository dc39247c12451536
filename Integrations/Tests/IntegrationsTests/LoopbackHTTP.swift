import Foundation

/// The tests' HTTP client for `link-service` on loopback: HTTP/1.1, one ``RawConnection`` a request
/// (`Connection: close`), no redirect followed, read on a thread of its own.
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
    ///   - timeout: The longest the connection may stay silent, in whole seconds (rounded up).
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
        guard let connection = RawConnection(port: port) else {
            throw Failure(description: "cannot connect to 127.0.0.1:\(port)")
        }
        guard connection.send(Array((head + "\r\n").utf8) + Array(body ?? Data())) else {
            throw Failure(description: "the connection to 127.0.0.1:\(port) failed while the request was sent")
        }
        let (closed, received) = await connection.readUntilClose(limit: Int(timeout.rounded(.up)))
        guard closed else { throw Failure(description: "no whole answer from 127.0.0.1:\(port) within \(timeout) s") }
        return try parse(received)
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
