import Foundation

/// Reads successive HTTP/1.x requests from one connection, tolerating requests split across reads and several
/// requests in one read (pipelining).
struct RequestReader {
    /// What `next()` produced.
    enum Outcome {
        /// A complete request (body read), and whether the connection may serve another one after it.
        case request(RecordedRequest, keepAlive: Bool)
        /// The client closed the connection (or the stub is shutting down) between requests.
        case closed
        /// The bytes are not an HTTP/1.x request this stub can read: answer `status` and close.
        case bad(status: Int, reason: String)
    }

    /// The longest request head (request line and headers) accepted.
    static let maximumHeadLength = 64 * 1024
    /// The most body bytes kept in ``RecordedRequest/body``; the rest is read and dropped.
    static let maximumRecordedBody = 1024 * 1024

    private let fd: Int32
    private let wake: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32, wake: Int32) {
        self.fd = fd
        self.wake = wake
    }

    /// Reads more bytes into the buffer; `false` at end of stream, on error, or when the stub shuts down.
    private mutating func fill() -> Bool {
        guard Socket.wait(for: fd, wake: wake, timeout: nil) == .readable,
              let bytes = Socket.receive(fd), !bytes.isEmpty
        else { return false }
        buffer.append(contentsOf: bytes)
        return true
    }

    /// Reads the next request.
    mutating func next() -> Outcome {
        // RFC 9112 §2.2: a server should ignore empty lines received before a request line.
        var headEnd: (start: Int, afterEnd: Int)?
        while true {
            while buffer.first == 0x0D || buffer.first == 0x0A { buffer.removeFirst() }
            if let end = Self.endOfHead(in: buffer) {
                headEnd = end
                break
            }
            if buffer.count > Self.maximumHeadLength {
                return .bad(status: 431, reason: "request head longer than \(Self.maximumHeadLength) bytes")
            }
            let hadBytes = !buffer.isEmpty
            guard fill() else {
                return hadBytes ? .bad(status: 400, reason: "connection closed inside a request head") : .closed
            }
        }
        guard let headEnd else { return .closed }
        let head = String(decoding: buffer[..<headEnd.start], as: UTF8.self)
        buffer.removeFirst(headEnd.afterEnd)

        let parsed: Head
        switch Self.parse(head) {
        case .success(let value): parsed = value
        case .failure(let failure): return .bad(status: failure.status, reason: failure.reason)
        }

        if parsed.expectsContinue, parsed.contentLength > 0, buffer.isEmpty {
            _ = Socket.sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        var body = Data()
        var remaining = parsed.contentLength
        while remaining > 0 {
            if buffer.isEmpty, !fill() {
                return .bad(status: 400, reason: "connection closed inside a request body")
            }
            let take = min(remaining, buffer.count)
            let room = max(0, Self.maximumRecordedBody - body.count)
            body.append(contentsOf: buffer[..<min(take, room)])
            buffer.removeFirst(take)
            remaining -= take
        }
        let request = RecordedRequest(
            method: parsed.method, target: parsed.target, version: parsed.version, headers: parsed.headers,
            body: body, receivedAt: Date())
        return .request(request, keepAlive: parsed.keepAlive)
    }

    /// Where the blank line ending the head starts, and the index just after it (CRLF CRLF, or bare LF LF).
    static func endOfHead(in bytes: [UInt8]) -> (start: Int, afterEnd: Int)? {
        guard bytes.count >= 2 else { return nil }
        for index in 1..<bytes.count where bytes[index] == 0x0A {
            if bytes[index - 1] == 0x0A { return (index - 1, index + 1) }
            if index >= 3, bytes[index - 1] == 0x0D, bytes[index - 2] == 0x0A, bytes[index - 3] == 0x0D {
                return (index - 3, index + 1)
            }
        }
        return nil
    }

    /// A parsed request head.
    struct Head {
        var method: String
        var target: String
        var version: String
        var headers: [(name: String, value: String)]
        var contentLength: Int
        var keepAlive: Bool
        var expectsContinue: Bool
    }

    /// Why a head was refused, with the status to answer.
    struct Refusal: Error {
        var status: Int
        var reason: String
    }

    private static let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    private static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { tokenCharacters.contains($0) }
    }

    /// Parses a request head (without the terminating blank line).
    static func parse(_ head: String) -> Result<Head, Refusal> {
        // "\r\n" is one Character in Swift, so a plain split on "\n" would not see it.
        var lines = head.split(omittingEmptySubsequences: false) { $0 == "\r\n" || $0 == "\n" }
        guard !lines.isEmpty else { return .failure(Refusal(status: 400, reason: "empty request")) }
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, isToken(parts[0]) else {
            return .failure(Refusal(status: 400, reason: "malformed request line '\(requestLine)'"))
        }
        let target = parts[1]
        guard !target.isEmpty, target.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            return .failure(Refusal(status: 400, reason: "malformed request target '\(target)'"))
        }
        let version = parts[2]
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .failure(Refusal(status: version.hasPrefix("HTTP/") ? 505 : 400,
                                    reason: "unsupported version '\(version)'"))
        }

        var headers: [(name: String, value: String)] = []
        var contentLength: Int?
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), isToken(line[..<colon]) else {
                return .failure(Refusal(status: 400, reason: "malformed header line '\(line)'"))
            }
            let name = String(line[..<colon])
            let value = String(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            headers.append((name, value))
            switch name.lowercased() {
            case "content-length":
                guard !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), value.utf8.count < 16,
                      let length = Int(value), contentLength == nil || contentLength == length
                else {
                    return .failure(Refusal(status: 400, reason: "bad Content-Length '\(value)'"))
                }
                contentLength = length
            case "transfer-encoding":
                return .failure(Refusal(status: 501, reason: "Transfer-Encoding '\(value)' is not supported"))
            default:
                break
            }
        }

        let connection = headers.filter { $0.name.lowercased() == "connection" }
            .flatMap { $0.value.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        let keepAlive = version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
        let expectsContinue = headers.contains {
            $0.name.lowercased() == "expect" && $0.value.lowercased() == "100-continue"
        }
        return .success(Head(
            method: String(parts[0]), target: String(target), version: String(version), headers: headers,
            contentLength: contentLength ?? 0, keepAlive: keepAlive, expectsContinue: expectsContinue))
    }
}
