import NIOCore
import Synchronization

/// Refuses a database server's message whose declared length is above the store's cap, before postgres-nio's decoder
/// would accumulate it: postgres-nio reads a message of any declared length into memory, and offers no limit.
///
/// It sits after TLS (or first, without TLS) and before postgres-nio's handlers, and passes every byte on unchanged
/// while it follows the backend framing: one type byte, then a 4-byte big-endian length that counts itself, then the
/// body. It keeps no body, only how much of the current message is left, and the header bytes seen so far (a header
/// may be split across reads). A declared length above `limit`, or below 4, fires a ``Violation`` and closes the
/// channel; the read that carried it is dropped, so memory stays within `limit` plus one read whatever the server
/// sends.
final class BackendFramingGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The message the guard refused: what the store's error says.
    struct Violation: Error, Sendable, CustomStringConvertible {
        /// The declared length (the length field's value, which counts its own 4 bytes).
        let length: Int
        /// The largest length the guard lets through.
        let limit: Int

        var description: String {
            if length < 4 {
                return "the database server sent a malformed message (a length of \(length), less than its own 4 bytes)"
            }
            return "the database server sent a message of \(length) bytes; the largest this store reads is \(limit) bytes"
        }
    }

    /// Where the violation is kept for the connection's owner: postgres-nio reports a closed connection, and may not
    /// say why.
    final class Record: Sendable {
        private let stored = Mutex<Violation?>(nil)

        /// The violation, once one happened.
        var violation: Violation? { stored.withLock { $0 } }

        fileprivate func keep(_ violation: Violation) { stored.withLock { $0 = $0 ?? violation } }
    }

    private let limit: Int
    private let record: Record
    /// The header bytes of the current message seen so far (0 to 4; the type byte is not kept).
    private var headerBytes = 0
    private var length: UInt32 = 0
    /// What is left of the current message's body.
    private var remaining = 0
    private var refused = false

    /// - Parameters:
    ///   - limit: The largest declared length let through.
    ///   - record: Where a violation is kept.
    init(limit: Int, record: Record) {
        self.limit = limit
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let buffer = unwrapInboundIn(data)
        var index = buffer.readerIndex
        let end = buffer.writerIndex
        while index < end {
            if remaining > 0 {
                let step = min(remaining, end - index)
                remaining -= step
                index += step
                continue
            }
            // A header byte: the type (headerBytes == 0), then the length, high byte first.
            if headerBytes > 0 {
                length = length << 8 | UInt32(buffer.getInteger(at: index, as: UInt8.self)!)
            }
            index += 1
            headerBytes += 1
            guard headerBytes == 5 else { continue }
            headerBytes = 0
            let declared = Int(length)
            length = 0
            guard declared >= 4, declared <= limit else {
                refused = true
                let violation = Violation(length: declared, limit: limit)
                record.keep(violation)
                context.fireErrorCaught(violation)
                context.close(promise: nil)
                return
            }
            remaining = declared - 4
        }
        context.fireChannelRead(data)
    }
}
