/// Why a test PKI or TLS server could not be set up: OpenSSL 3 missing, a certificate or setting it refused.
public struct TLSTestError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, with OpenSSL's reason when it gave one.
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    /// The text of a NUL-terminated C buffer.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
