import NIOCore
import NIOHTTP1
import UniversalLinkKitHummingbird

/// Bounds what one request may cost before the routes see it, right after the HTTP/1 decoder: a declared body over
/// the limit is refused at once (`400`, `invalidRequest`, the body `POST /resolve` documents) and the connection
/// closed; a body must arrive whole within the body timeout of its head, so a trickling client is cut as a slow head
/// is; and a request that does not keep its connection (HTTP/1.0 without `Connection: keep-alive`) is marked
/// `Connection: close`, so the connection closes once it is answered instead of waiting for the idle timeout.
///
/// It also tells ``ConnectionGuard`` where the connection's request is (its body arriving, then answered).
final class RequestGuardHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let bodyTimeout: TimeAmount
    private let maximumBodySize: Int
    private let phase: (ConnectionGuard.Phase) -> Void
    private var timer: Scheduled<Void>?
    /// A refused request: its remaining parts are dropped until the connection closes.
    private var refusing = false

    init(bodyTimeout: TimeAmount, maximumBodySize: Int, phase: @escaping (ConnectionGuard.Phase) -> Void) {
        self.bodyTimeout = bodyTimeout
        self.maximumBodySize = maximumBodySize
        self.phase = phase
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        switch unwrapInboundIn(data) {
        case .head(var head):
            phase(.readingBody)
            if let declared = head.headers.first(name: "content-length").flatMap({ Int($0) }), declared > maximumBodySize {
                return refuse(head, declared: declared, context: context)
            }
            if !head.isKeepAlive { head.headers.replaceOrAdd(name: "connection", value: "close") }
            // Only a request with a body has one to wait for: a GET's end follows its head at once.
            if head.headers.contains(name: "transfer-encoding") || head.headers.first(name: "content-length").map({ $0 != "0" }) == true {
                let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                timer = context.eventLoop.scheduleTask(in: bodyTimeout) { loopBound.value.close(promise: nil) }
            }
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body:
            context.fireChannelRead(data)
        case .end:
            timer?.cancel()
            timer = nil
            phase(.answering)
            context.fireChannelRead(data)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    /// Answers `400 invalidRequest` without reading the body, then closes the connection.
    private func refuse(_ head: HTTPRequestHead, declared: Int, context: ChannelHandlerContext) {
        refusing = true
        let json = LinkAnswer.invalidRequestJSON(
            "the body is larger than \(maximumBodySize) bytes (Content-Length: \(declared)): send {\"url\": \"<tracking link>\"}"
        )
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json")
        headers.add(name: "content-length", value: String(json.count))
        headers.add(name: "connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .badRequest, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: json)))), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
    }
}
