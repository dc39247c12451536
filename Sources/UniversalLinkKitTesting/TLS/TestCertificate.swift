import Foundation

/// A certificate ``TestPKI`` issued, as the PEM files a TLS server loads.
public struct TestCertificate: Sendable, Hashable {
    /// What was asked for.
    package let spec: CertificateSpec
    /// The leaf alone (PEM).
    package let leafFile: String
    /// The leaf followed by its intermediate when the intermediate signed it (PEM): what a well-configured server
    /// sends. The same as ``leafFile`` for a leaf signed by the root or by itself.
    package let chainFile: String
    /// The leaf's private key (unencrypted PEM).
    package let keyFile: String
    /// When the leaf stops being valid.
    package let notAfter: Date
    /// When the leaf starts being valid.
    package let notBefore: Date
}
