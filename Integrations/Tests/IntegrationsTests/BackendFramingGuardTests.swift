import NIOCore
import NIOEmbedded
import Testing
@testable import UniversalLinkKitPostgres

/// The framing guard alone: it follows the backend messages across reads without changing a byte, and refuses a
/// declared length above its cap or below 4.
struct BackendFramingGuardTests {
    /// A backend message: its type, its length (which counts itself), its body.
    static func message(_ type: Character, _ body: [UInt8]) -> [UInt8] {
        [type.asciiValue!] + withUnsafeBytes(of: UInt32(body.count + 4).bigEndian, Array.init) + body
    }

    /// Writes `pieces` as separate reads; returns what came out, and the error a write threw.
    static func feed(_ pieces: [[UInt8]], to channel: EmbeddedChannel) -> (bytes: [UInt8], error: (any Error)?) {
        var bytes: [UInt8] = []
        for piece in pieces {
            do {
                try channel.writeInbound(channel.allocator.buffer(bytes: piece))
            } catch {
                return (bytes, error)
            }
            while let out = try? channel.readInbound(as: ByteBuffer.self) { bytes += Array(out.readableBytesView) }
        }
        return (bytes, nil)
    }

    @Test func messagesWhoseHeadersArriveOneByteAtATimePassUnchangedAndTheNextHeaderIsStillFound() throws {
        let record = BackendFramingGuard.Record()
        let channel = EmbeddedChannel(handler: BackendFramingGuard(limit: 1024, record: record))
        let row = Self.message("D", Array(repeating: 7, count: 300))
        let ready = Self.message("Z", [UInt8(ascii: "I")])
        // The row's five header bytes in five reads, its body in two, then the next message with the row's tail.
        let pieces = row[0..<5].map { [$0] } + [Array(row[5..<105]), Array(row[105..<300]), Array(row[300...]) + ready]
        let passed = Self.feed(pieces, to: channel)
        #expect(passed.error == nil)
        #expect(passed.bytes == row + ready)
        #expect(record.violation == nil)

        // The guard still knows where a message starts: a header over the cap, split across reads, is refused.
        let oversized: [UInt8] = [UInt8(ascii: "D"), 0, 0, 0x04, 0x01]
        let refused = Self.feed([Array(oversized[0..<3]), Array(oversized[3...]) + [1, 2, 3]], to: channel)
        // The header bytes that came before the one that completes the length went on; postgres-nio keeps them
        // until the channel closes.
        #expect(refused.bytes == Array(oversized[0..<3]))
        let violation = try #require(refused.error as? BackendFramingGuard.Violation)
        #expect(violation.length == 1025)
        #expect(record.violation?.length == 1025)
        #expect(!channel.isActive)
    }

    @Test(arguments: [
        (UInt32(1 << 31), "the database server sent a message of 2147483648 bytes; the largest this store reads is 1048576 bytes"),
        (UInt32(2), "the database server sent a malformed message (a length of 2, less than its own 4 bytes)"),
    ])
    func aDeclaredLengthAboveTheCapOrBelowFourIsRefusedAndClosesTheChannel(length: UInt32, expected: String) throws {
        let record = BackendFramingGuard.Record()
        let channel = EmbeddedChannel(handler: BackendFramingGuard(limit: PostgresClaimStore.maximumMessageLength, record: record))
        let header = [UInt8(ascii: "R")] + withUnsafeBytes(of: length.bigEndian, Array.init)
        let result = Self.feed([Self.message("S", Array("a=b\0".utf8)) + header + [0, 0, 0, 0]], to: channel)
        #expect(result.bytes.isEmpty, "nothing of the read that carried the header goes on")
        #expect("\(try #require(record.violation))" == expected)
        #expect(!channel.isActive)
    }
}
