extension Finding.Code {
    /// `tls.handshake`: No TLS handshake with the host completed (it never answered, closed, or sent something no
    /// client reads), so no device connects either.
    package static var tlsHandshake: Self { Self("tls.handshake") }
    /// `tls.untrusted`: The certificate does not verify: self-signed, or its chain ends in a root that is not
    /// trusted (the system's roots, or those of the CA file given).
    package static var tlsUntrusted: Self { Self("tls.untrusted") }
    /// `tls.incompleteChain`: The leaf's issuer is neither sent by the server nor trusted: the server does not send
    /// its intermediate certificates (clients do not download them).
    package static var tlsIncompleteChain: Self { Self("tls.incompleteChain") }
    /// `tls.expired`: A certificate of the chain has expired.
    package static var tlsExpired: Self { Self("tls.expired") }
    /// `tls.notYetValid`: A certificate of the chain is not valid yet (or the server's clock is wrong).
    package static var tlsNotYetValid: Self { Self("tls.notYetValid") }
    /// `tls.expiresSoon`: A certificate of the chain expires in fewer than 30 days (a warning).
    package static var tlsExpiresSoon: Self { Self("tls.expiresSoon") }
    /// `tls.nameMismatch`: The certificate's subjectAltName does not name the host.
    package static var tlsNameMismatch: Self { Self("tls.nameMismatch") }
    /// `tls.protocol`: The host offers neither TLS 1.2 nor TLS 1.3; App Transport Security requires TLS 1.2.
    package static var tlsProtocol: Self { Self("tls.protocol") }
    /// `tls.noForwardSecrecy`: With TLS 1.2 the host offers no ECDHE cipher suite; App Transport Security requires
    /// forward secrecy.
    package static var tlsNoForwardSecrecy: Self { Self("tls.noForwardSecrecy") }
    /// `tls.weakKey`: A certificate of the chain has an RSA key under 2048 bits or an EC key under 256 bits.
    package static var tlsWeakKey: Self { Self("tls.weakKey") }
    /// `tls.weakSignature`: A certificate of the chain is signed with SHA-1 or a weaker digest.
    package static var tlsWeakSignature: Self { Self("tls.weakSignature") }
}
