/// One HTTP/1.1 answer before it is written: status, header fields and body.
struct StubResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]
    /// The `Content-Length` to announce; the body's length unless a behaviour promises something else.
    var contentLength: Int

    init(status: Int, headers: [(String, String)], body: [UInt8], contentLength: Int? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.contentLength = contentLength ?? body.count
    }

    /// 1xx, 204 and 304 answers never carry a body (RFC 9110 §6.4.1).
    var allowsBody: Bool {
        !((100..<200).contains(status) || status == 204 || status == 304)
    }

    /// The status line and header fields, always with `Content-Length` (clients reuse the connection only when
    /// they know where the body ends), and `Connection: close` when this is the connection's last answer.
    func head(close: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
        text += "Server: ResponseHandlerStub\r\n"
        // A chunked answer says where its body ends by its last chunk; it must not also carry a length.
        var hasFraming = false
        var hasConnection = false
        for (name, value) in headers {
            text += "\(name): \(value)\r\n"
            switch name.lowercased() {
            case "content-length", "transfer-encoding": hasFraming = true
            case "connection": hasConnection = true
            default: break
            }
        }
        if !hasFraming, status >= 200, status != 204 {
            text += "Content-Length: \(contentLength)\r\n"
        }
        if close, !hasConnection {
            text += "Connection: close\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
