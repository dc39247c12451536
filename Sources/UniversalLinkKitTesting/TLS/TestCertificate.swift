import Foundation

/// A certificate ``TestPKI`` issued, as the PEM files a TLS server loads.
public struct TestCertificate: Sendable, Hashable {
    /// What was asked for.
    public let spec: CertificateSpec
    /// The leaf alone (PEM).
    public let leafFile: String
    /// The leaf followed by its intermediate when the intermediate signed it (PEM): what a well-configured server
    /// sends. The same as ``leafFile`` for a leaf signed by the root or by itself.
    public let chainFile: String
    /// The leaf's private key (unencrypted PEM).
    public let keyFile: String
    /// When the leaf stops being valid.
    public let notAfter: Date
    /// When the leaf starts being valid.
    public let notBefore: Date
}
