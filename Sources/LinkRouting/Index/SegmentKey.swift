/// The bytes of one path component as a dictionary key, hashed in one call rather than byte by byte
/// (`[UInt8]`'s own `hash(into:)` feeds the hasher one element at a time).
struct SegmentKey: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (lhs: SegmentKey, rhs: SegmentKey) -> Bool {
        lhs.bytes == rhs.bytes
    }
}
