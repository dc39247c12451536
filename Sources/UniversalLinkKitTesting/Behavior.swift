/// How ``ResponseHandlerStub`` answers one request: normally, or by misbehaving on purpose.
///
/// An open set of static members (new ones may be added without breaking callers), composable where it makes
/// sense:
/// ```swift
/// stub.enqueue([.status(503, headers: [("Retry-After", "1")]), .normal], for: "/pub/acc")
/// stub.enqueue([.delay(2, then: .json(#"{"webLinkUrl": 42}"#))], for: "/pub/acc?_ri_=slow")
/// stub.setDefaultBehavior(.noResponse)
/// ```
public struct Behavior: Sendable {
    indirect enum Kind: Sendable {
        case normal
        case status(code: Int, headers: [(String, String)], body: String)
        case json(String)
        case redirect(location: String, status: Int)
        case delay(seconds: Double, then: Kind)
        case trickle(bytesPerChunk: Int, interval: Double, then: Kind)
        case hugeBody(bytes: Int)
        case chunkedBody(bytes: Int)
        case dropConnection
        case resetConnection
        case dropAfterHeaders
        case noResponse
        case compressedBomb(bytes: Int)
        case endlessBody
        case resetAfterStatusLine
    }

    let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// Serve the link table like the real Response Handler.
    ///
    /// A request whose exact target, else whose path, is in the table gets, when any `Accept` header contains
    /// `application/json`, a `200` with `Content-Type: application/json` and
    /// `{"webLinkUrl":"…","mobileDeepLinkUrl":"…"}` (`null` for an absent link); otherwise a `302` whose
    /// `Location` is the web link (the deep link when there is no web link, `404` when there is neither).
    /// Anything else gets a `404`. A `HEAD` request gets the same head without a body.
    public static let normal = Behavior(.normal)

    /// Answer with this status, these extra headers and this body (`Content-Length` is always added).
    ///
    /// - Parameters:
    ///   - code: the status code, for example `503`.
    ///   - headers: extra header fields, in order, for example `[("Retry-After", "1")]`.
    ///   - body: the body, sent as UTF-8; `Content-Type: text/plain` unless `headers` set one.
    /// - Returns: the behaviour.
    public static func status(_ code: Int, headers: [(String, String)] = [], body: String = "") -> Behavior {
        Behavior(.status(code: code, headers: headers, body: body))
    }

    /// Answer `200` with `Content-Type: application/json` and exactly this body, valid JSON or not.
    ///
    /// - Parameter body: the body, sent as UTF-8 (malformed JSON, wrong types, arrays...).
    /// - Returns: the behaviour.
    public static func json(_ body: String) -> Behavior {
        Behavior(.json(body))
    }

    /// Answer with a redirect to `location`, whatever the link table says.
    ///
    /// - Parameters:
    ///   - location: the `Location` header value, sent as given (relative, another host, another scheme...).
    ///   - status: the status code, `302` by default (`301`, `303`, `307`, `308` also make sense).
    /// - Returns: the behaviour.
    public static func redirect(to location: String, status: Int = 302) -> Behavior {
        Behavior(.redirect(location: location, status: status))
    }

    /// Wait, then behave like `then`. The wait ends early, closing the connection, when the stub shuts down.
    ///
    /// - Parameters:
    ///   - seconds: how long to wait before the first byte of the answer.
    ///   - then: what to do after the wait, ``normal`` by default.
    /// - Returns: the behaviour.
    public static func delay(_ seconds: Double, then: Behavior = .normal) -> Behavior {
        Behavior(.delay(seconds: seconds, then: then.kind))
    }

    /// Send the answer of `then` slowly, status line and headers included: `bytesPerChunk` bytes, then a pause
    /// of `interval` seconds, and so on.
    ///
    /// Useful to check that a client enforces an overall deadline, not just an idle timeout.
    /// - Parameters:
    ///   - bytesPerChunk: bytes per write (at least 1).
    ///   - interval: seconds between writes.
    ///   - then: the answer to trickle, ``normal`` by default.
    /// - Returns: the behaviour.
    package static func trickle(bytesPerChunk: Int, interval: Double, then: Behavior = .normal) -> Behavior {
        Behavior(.trickle(bytesPerChunk: max(1, bytesPerChunk), interval: interval, then: then.kind))
    }

    /// Answer `200` with `Content-Type: application/json`, `Content-Length: bytes`, and that many bytes
    /// generated while sending, in chunks, so even gigabytes cost the stub no memory.
    ///
    /// The body starts like a JSON object and never ends like one. Sending stops early when the client closes.
    /// - Parameter bytes: the body length.
    /// - Returns: the behaviour.
    public static func hugeBody(bytes: Int) -> Behavior {
        Behavior(.hugeBody(bytes: max(0, bytes)))
    }

    /// Answer `200` with `Content-Type: application/json` and `Transfer-Encoding: chunked`, no `Content-Length`,
    /// then `bytes` generated body bytes in 64 KiB chunks and the last chunk.
    ///
    /// Without a length a client cannot refuse the answer from its head: only a cap applied while receiving stops
    /// it. The body starts like a JSON object and never ends like one; sending stops early when the client closes.
    /// - Parameter bytes: the body length, summed over the chunks.
    /// - Returns: the behaviour.
    package static func chunkedBody(bytes: Int) -> Behavior {
        Behavior(.chunkedBody(bytes: max(0, bytes)))
    }

    /// Read the request, then close the connection (a FIN) before sending anything.
    public static let dropConnection = Behavior(.dropConnection)

    /// Read the request, then reset the connection (`SO_LINGER` 0, a TCP RST) before sending anything.
    public static let resetConnection = Behavior(.resetConnection)

    /// Send a `200` status line and headers promising a JSON body (`Content-Length` > 0), then close without
    /// sending the body.
    ///
    /// The head is the ``normal`` answer's when it has a body, else `200` with `Content-Type: application/json`
    /// and `Content-Length: 64`.
    package static let dropAfterHeaders = Behavior(.dropAfterHeaders)

    /// Read the request and never answer; the connection stays open until the client closes it or the stub shuts
    /// down.
    public static let noResponse = Behavior(.noResponse)

    /// A `200` JSON answer with `Content-Encoding: gzip` whose body, `bytes` long, is a gzip stream that inflates
    /// about 250-fold (zeros): a decompression bomb. Sent whatever the request's `Accept-Encoding` says, and
    /// generated while it is sent, so even a bomb of gigabytes costs the stub no memory.
    ///
    /// - Parameter bytes: The size of the compressed body sent.
    /// - Returns: The behaviour.
    package static func compressedBomb(bytes: Int) -> Behavior {
        Behavior(.compressedBomb(bytes: max(32, bytes)))
    }

    /// A chunked `200` JSON answer that never ends: chunks are written as fast as the client reads them until
    /// it closes the connection. `bytesSent` says how much it took.
    package static let endlessBody = Behavior(.endlessBody)

    /// Sends the status line `HTTP/1.1 200 OK` and resets the connection: the server answered, then failed.
    package static let resetAfterStatusLine = Behavior(.resetAfterStatusLine)
}

extension Behavior {
    /// A short description for test logs, for example `delay(2.0, then: normal)`.
    package var description: String {
        kind.description
    }
}

extension Behavior.Kind: CustomStringConvertible {
    var description: String {
        switch self {
        case .normal: "normal"
        case .status(let code, let headers, let body):
            "status(\(code), headers: \(headers.count), body: \(body.utf8.count) bytes)"
        case .json(let body): "json(\(body.utf8.count) bytes)"
        case .redirect(let location, let status): "redirect(to: \(location), status: \(status))"
        case .delay(let seconds, let then): "delay(\(seconds), then: \(then))"
        case .trickle(let bytes, let interval, let then):
            "trickle(bytesPerChunk: \(bytes), interval: \(interval), then: \(then))"
        case .hugeBody(let bytes): "hugeBody(bytes: \(bytes))"
        case .chunkedBody(let bytes): "chunkedBody(bytes: \(bytes))"
        case .dropConnection: "dropConnection"
        case .resetConnection: "resetConnection"
        case .dropAfterHeaders: "dropAfterHeaders"
        case .noResponse: "noResponse"
        case .compressedBomb(let bytes): "compressedBomb(bytes: \(bytes))"
        case .endlessBody: "endlessBody"
        case .resetAfterStatusLine: "resetAfterStatusLine"
        }
    }
}
