extension TLSFront {
    /// A TLS protocol version, by its number on the wire.
    package enum TLSVersion: Int32, Sendable, Hashable, Comparable {
        /// TLS 1.0.
        case tls10 = 0x0301
        /// TLS 1.1.
        case tls11 = 0x0302
        /// TLS 1.2.
        case tls12 = 0x0303
        /// TLS 1.3.
        case tls13 = 0x0304

        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What each connection does instead of an honest TLS session, for the hostile cases.
    package enum Behavior: Sendable, Hashable {
        /// Handshake, then bytes both ways until either side closes.
        case honest
        /// Accepts TCP and never sends a byte: the handshake never completes.
        case silent
        /// Reads the ClientHello, sends the ServerHello alone and closes.
        case closeAfterFirstMessage
        /// Forwards the first `bytes` bytes of the upstream's answer (head and body), then a close_notify alert,
        /// then closes: an answer cut in the middle of its body.
        case closeMidBody(afterBytes: Int)
    }

    /// How the front speaks TLS.
    public struct Configuration: Sendable, Hashable {
        /// The certificate it presents.
        package var certificate: TestCertificate
        /// Whether the intermediate is sent after the leaf (a leaf the intermediate signed). Default `true`;
        /// `false` makes an incomplete chain.
        public var sendsIntermediate = true
        /// A chain file to send instead of the certificate's (for example ``TestPKI/paddedChain(of:toAtLeast:)``).
        package var chainFile: String?
        /// The lowest version accepted; `nil`: OpenSSL's default.
        package var minimumVersion: TLSVersion?
        /// The highest version accepted; `nil`: OpenSSL's default (TLS 1.3).
        package var maximumVersion: TLSVersion?
        /// Cipher suites for TLS 1.2 and below, in OpenSSL's syntax (`AES128-SHA256`); `nil`: OpenSSL's default.
        package var cipherList: String?
        /// TLS 1.3 cipher suites; `nil`: OpenSSL's default.
        package var tls13CipherSuites: String?
        /// OpenSSL's security level. Default 0, which lets the server present 1024-bit keys and SHA-1 signatures
        /// and speak TLS 1.0 and 1.1: the client under test decides what it accepts.
        package var securityLevel = 0
        /// What connections do. Default ``Behavior/honest``.
        package var behavior = Behavior.honest
        /// Whether HTTP/2 is offered by ALPN (`h2` before `http/1.1`): a client that asks for it gets an HTTP/2
        /// server (nghttp2, loaded at run time) whose requests the upstream answers, each on an upstream connection
        /// of its own. Default `false`.
        public var offersHTTP2 = false
        /// The HTTP/2 streams one connection may carry at once (`SETTINGS_MAX_CONCURRENT_STREAMS`). Default 100.
        package var maximumHTTP2Streams = 100

        /// A front presenting `certificate`, with every other setting at its default.
        ///
        /// - Parameter certificate: The certificate, from ``TestPKI/issue(_:)``.
        public init(certificate: TestCertificate) {
            self.certificate = certificate
        }

        /// Only TLS 1.0 and 1.1.
        package mutating func onlyLegacyVersions() {
            minimumVersion = .tls10
            maximumVersion = .tls11
            cipherList = "DEFAULT:@SECLEVEL=0"
        }

        /// TLS 1.2 at most, with one cipher suite that is not forward secret (`AES128-SHA256`: RSA key exchange;
        /// the certificate must have an RSA key).
        package mutating func onlyNonForwardSecretCipher() {
            maximumVersion = .tls12
            cipherList = "AES128-SHA256"
        }
    }
}
