/// What one certificate that ``TestPKI`` issues looks like: its key, names, validity, signature and issuer.
///
/// The presets are the certificates an HTTPS test needs: a clean leaf (``clean``), and the faults a client must
/// refuse: ``expired``, for another host (``forOtherNames(_:)``), ``selfSigned``. A leaf from a ``TestPKI`` whose
/// root the client does not trust is the untrusted chain; one served without its intermediate
/// (``TLSFront/Configuration/sendsIntermediate``) the incomplete chain.
///
/// ```swift
/// // snippet: skip
/// var spec = CertificateSpec.clean
/// spec.names = ["news.example.com"]
/// let certificate = try pki.issue(spec)
/// ```
public struct CertificateSpec: Sendable, Hashable {
    /// The key pair's algorithm and size.
    package enum Key: Sendable, Hashable {
        /// EC on NIST P-256.
        case p256
        /// EC on NIST P-384.
        case p384
        /// RSA of the given modulus size, in bits.
        case rsa(bits: Int)
    }

    /// Who signs the certificate.
    package enum Issuer: Sendable, Hashable {
        /// The PKI's intermediate CA (the usual case: the chain is leaf, intermediate, root).
        case intermediate
        /// The PKI's root directly.
        case root
        /// The certificate itself.
        case selfSigned
    }

    /// The key pair. Default P-256.
    package var key: Key = .p256
    /// The subject's common name. Default `ULK test leaf`.
    package var commonName = "ULK test leaf"
    /// The subjectAltName entries: IP addresses become `IP:` entries, anything else `DNS:`. Default `localhost`,
    /// `127.0.0.1` and `::1`.
    public var names = ["localhost", "127.0.0.1", "::1"]
    /// The start of validity, from now (negative: in the past). Default one hour ago.
    package var validFrom: Duration = .seconds(-3600)
    /// The end of validity, from now. Default 90 days.
    package var validUntil: Duration = .seconds(90 * 86_400)
    /// Signed with SHA-1 instead of SHA-256.
    package var signedWithSHA1 = false
    /// The signer. Default the intermediate.
    package var issuer: Issuer = .intermediate

    /// Creates a spec; the defaults make a clean leaf.
    package init() {}

    /// A clean leaf: P-256, SHA-256, valid for 90 days, for `localhost`, `127.0.0.1` and `::1`, signed by the
    /// intermediate.
    public static var clean: Self { Self() }

    /// A clean leaf with an RSA 2048-bit key.
    package static var cleanRSA: Self {
        var spec = Self()
        spec.key = .rsa(bits: 2048)
        return spec
    }

    /// A leaf whose validity ended yesterday.
    public static var expired: Self {
        var spec = Self()
        spec.validFrom = .seconds(-60 * 86_400)
        spec.validUntil = .seconds(-86_400)
        return spec
    }

    /// A leaf valid from tomorrow.
    package static var notYetValid: Self {
        var spec = Self()
        spec.validFrom = .seconds(86_400)
        spec.validUntil = .seconds(90 * 86_400)
        return spec
    }

    /// A leaf that expires in `days` days.
    package static func expiring(inDays days: Int) -> Self {
        var spec = Self()
        spec.validUntil = .seconds(days * 86_400)
        return spec
    }

    /// A leaf for other names only.
    public static func forOtherNames(_ names: [String] = ["other.example.net"]) -> Self {
        var spec = Self()
        spec.names = names
        return spec
    }

    /// A leaf with an RSA 1024-bit key (servers need security level 0 to use it).
    package static var rsa1024: Self {
        var spec = Self()
        spec.key = .rsa(bits: 1024)
        return spec
    }

    /// A leaf signed with SHA-1 (servers need security level 0 to use it).
    package static var sha1Signed: Self {
        var spec = Self()
        spec.signedWithSHA1 = true
        return spec
    }

    /// A self-signed leaf.
    public static var selfSigned: Self {
        var spec = Self()
        spec.issuer = .selfSigned
        return spec
    }
}
