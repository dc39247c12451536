import NIOCore
import NIOSSL
import NIOTLS

/// Reads the server's one-byte answer to the SSLRequest, then waits for the TLS handshake, for
/// ``ConnectionOpener``; removed once TLS is up (or refused), before postgres-nio sees the channel.
///
/// The answer must come alone: a server (or an attacker on the path) that sends more bytes with it would have them
/// read as if they came over TLS, so they are refused, as libpq refuses them.
final class TLSNegotiationHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// The handler's name in the pipeline, to remove it by.
    static let name = "UniversalLinkKitPostgres.TLSNegotiation"

    private enum Phase {
        case answer(EventLoopPromise<UInt8>)
        case handshake(EventLoopPromise<Void>)
        case done
    }

    private var phase: Phase
    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    /// A failure that came between the answer and ``awaitHandshake(_:)``.
    private var lateError: (any Error)?

    /// - Parameters:
    ///   - answer: Completed with the server's answer byte.
    ///   - timeout: How long the answer and the handshake together may take; then the channel is closed.
    init(answer: EventLoopPromise<UInt8>, timeout: TimeAmount) {
        phase = .answer(answer)
        self.timeout = timeout
    }

    /// The handshake's end, once the TLS handler sits before this one.
    func awaitHandshake(_ promise: EventLoopPromise<Void>) {
        if let lateError { return promise.fail(lateError) }
        phase = .handshake(promise)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: timeout) {
            bound.value.handler.fail(
                ConnectionOpener.SetupError(message: "the TLS negotiation with the database server did not end in time"),
                context: bound.value.context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard case let .answer(promise) = phase else {
            return fail(ConnectionOpener.SetupError(message: "the database server sent data during the TLS handshake"), context: context)
        }
        guard buffer.readableBytes == 1, let byte = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else {
            return fail(
                ConnectionOpener.SetupError(
                    message: "the database server answered the TLS request with \(buffer.readableBytes) bytes instead of one"),
                context: context)
        }
        phase = .done
        promise.succeed(byte)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case let .handshake(promise) = phase, let event = event as? TLSUserEvent, case .handshakeCompleted = event {
            phase = .done
            timer?.cancel()
            promise.succeed()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(ConnectionOpener.SetupError(message: "the database server closed the connection during the TLS negotiation"), context: context)
        context.fireChannelInactive()
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        switch phase {
        case let .answer(promise): promise.fail(error)
        case let .handshake(promise): promise.fail(error)
        case .done:
            lateError = lateError ?? error
            return
        }
        phase = .done
        context.close(promise: nil)
    }
}
