import NIOCore

/// Closes a connection whose request head does not arrive whole within a timeout of its first byte (a slow-header
/// client holds a connection and a descriptor for as long as the server lets it).
///
/// It sits first in the pipeline and reads raw bytes: a head ends at the first `CRLF CRLF`. After it, the bytes are
/// the request's body (or pipelined requests), not looked at, until ``RequestEnded`` says the request was answered.
/// The time before a head's first byte is the idle timeout's business.
final class HeaderReadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Fired through the pipeline once a request was answered.
    struct RequestEnded: Sendable {}

    private enum State {
        /// Between requests: no byte of the next head yet.
        case waiting
        /// Reading a head; `matched` bytes of `CRLF CRLF` seen at the end of what arrived so far.
        case readingHead(matched: Int)
        /// The head arrived; the request is being read or answered.
        case inRequest
    }

    private let timeout: TimeAmount
    private var state = State.waiting
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        var matched: Int
        switch state {
        case .inRequest:
            context.fireChannelRead(data)
            return
        case .waiting:
            guard buffer.readableBytes > 0 else {
                context.fireChannelRead(data)
                return
            }
            matched = 0
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: timeout) { loopBound.value.close(promise: nil) }
        case .readingHead(let soFar):
            matched = soFar
        }
        let terminator: [UInt8] = [13, 10, 13, 10]
        for byte in buffer.readableBytesView {
            if byte == terminator[matched] {
                matched += 1
                if matched == 4 { break }
            } else {
                matched = byte == 13 ? 1 : 0
            }
        }
        if matched == 4 {
            timer?.cancel()
            timer = nil
            state = .inRequest
        } else {
            state = .readingHead(matched: matched)
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is RequestEnded else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if case .inRequest = state { state = .waiting }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }
}
