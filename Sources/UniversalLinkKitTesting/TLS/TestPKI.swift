import Foundation
import Synchronization
internal import _COpenSSL
internal import _LinkKitLocking

/// A throwaway certificate authority made at test time: a root, an intermediate it signed, and leaves issued on
/// demand, as PEM files in a temporary directory that goes away with the value.
///
/// Nothing is committed and nothing outlives the test: keys are generated (OpenSSL 3, loaded at run time like
/// libcurl) when the PKI is created, and the directory is removed when it is released.
///
/// ```swift
/// // snippet: skip
/// let pki = try TestPKI()
/// let leaf = try pki.issue(.expired)
/// let front = try TLSFront(upstreamPort: stub.port, configuration: .init(certificate: leaf))
/// // trust pki.rootFile in the client under test
/// ```
public final class TestPKI: Sendable {
    /// The temporary directory that holds every file.
    package let directory: URL
    /// The root CA's certificate (PEM): the file a client trusts.
    public let rootFile: String
    /// The intermediate CA's certificate (PEM).
    package let intermediateFile: String

    /// Handles of the root's and the intermediate's key and certificate, as bit patterns, and the next serial.
    /// Issuing is serialised by the lock: OpenSSL's objects are shared by every signature.
    private let state: Mutex<State>

    private struct State {
        var rootKey: UInt
        var rootCertificate: UInt
        var intermediateKey: UInt
        var intermediateCertificate: UInt
        var serial = 10
        var issued = 0
    }

    /// Creates the root (P-256, valid ten years) and the intermediate (P-256, five years) in a new temporary
    /// directory.
    ///
    /// - Throws: ``TLSTestError`` when OpenSSL 3 cannot be loaded or a certificate cannot be made.
    public init() throws(TLSTestError) {
        var error = [CChar](repeating: 0, count: 256)
        guard ulk_ssl_load(&error, error.count) == 0 else { throw TLSTestError(TLSTestError.text(error)) }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ulk-pki-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw TLSTestError("cannot create \(directory.path): \(error)")
        }
        rootFile = directory.appendingPathComponent("root.pem").path
        intermediateFile = directory.appendingPathComponent("intermediate.pem").path
        let year: Int64 = 365 * 86_400
        guard let rootKey = ulk_pki_key("P-256", 0),
              let root = ulk_pki_cert(rootKey, "ULK Test Root CA", nil, 1, -3600, 10 * year, 0, nil, nil, 1)
        else { throw TLSTestError("cannot make the root CA: \(Self.lastError())") }
        guard let intermediateKey = ulk_pki_key("P-256", 0),
              let intermediate = ulk_pki_cert(
                intermediateKey, "ULK Test Intermediate CA", nil, 1, -3600, 5 * year, 0, root, rootKey, 2)
        else { throw TLSTestError("cannot make the intermediate CA: \(Self.lastError())") }
        state = Mutex(State(
            rootKey: UInt(bitPattern: rootKey), rootCertificate: UInt(bitPattern: root),
            intermediateKey: UInt(bitPattern: intermediateKey), intermediateCertificate: UInt(bitPattern: intermediate)))
        guard ulk_pki_write_cert(root, rootFile, 0) == 0, ulk_pki_write_cert(intermediate, intermediateFile, 0) == 0 else {
            throw TLSTestError("cannot write the CA certificates in \(directory.path)")
        }
    }

    deinit {
        let handles = state.withTrackedLock { $0 }
        for key in [handles.rootKey, handles.intermediateKey] { ulk_pki_key_free(UnsafeMutableRawPointer(bitPattern: key)) }
        for certificate in [handles.rootCertificate, handles.intermediateCertificate] {
            ulk_pki_cert_free(UnsafeMutableRawPointer(bitPattern: certificate))
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Issues a certificate and writes its files.
    ///
    /// - Parameter spec: What the certificate looks like.
    /// - Returns: Its files and validity.
    /// - Throws: ``TLSTestError`` when OpenSSL refuses (an RSA size it cannot make, say).
    public func issue(_ spec: CertificateSpec) throws(TLSTestError) -> TestCertificate {
        let key: UnsafeMutableRawPointer? = switch spec.key {
        case .p256: ulk_pki_key("P-256", 0)
        case .p384: ulk_pki_key("P-384", 0)
        case .rsa(let bits): ulk_pki_key(nil, Int32(bits))
        }
        guard let key else { throw TLSTestError("cannot make a \(spec.key) key: \(Self.lastError())") }
        defer { ulk_pki_key_free(key) }
        let san = spec.names.map { (Self.isIPAddress($0) ? "IP:" : "DNS:") + $0 }.joined(separator: ",")
        let now = Date()
        let (from, until) = (Self.seconds(spec.validFrom), Self.seconds(spec.validUntil))
        let (index, certificate) = state.withTrackedLock { state -> (Int, UInt) in
            state.serial += 1
            state.issued += 1
            let (issuerCertificate, issuerKey): (UInt, UInt) = switch spec.issuer {
            case .intermediate: (state.intermediateCertificate, state.intermediateKey)
            case .root: (state.rootCertificate, state.rootKey)
            case .selfSigned: (0, 0)
            }
            let made = ulk_pki_cert(
                key, spec.commonName, san.isEmpty ? nil : san, 0, from, until, spec.signedWithSHA1 ? 1 : 0,
                UnsafeMutableRawPointer(bitPattern: issuerCertificate), UnsafeMutableRawPointer(bitPattern: issuerKey),
                state.serial)
            return (state.issued, UInt(bitPattern: made))
        }
        guard let handle = UnsafeMutableRawPointer(bitPattern: certificate) else {
            throw TLSTestError("cannot make the certificate: \(Self.lastError())")
        }
        defer { ulk_pki_cert_free(handle) }
        let base = directory.appendingPathComponent("leaf-\(index)").path
        let (leafFile, chainFile, keyFile) = (base + ".pem", base + "-chain.pem", base + ".key")
        guard ulk_pki_write_cert(handle, leafFile, 0) == 0, ulk_pki_write_key(key, keyFile) == 0,
              ulk_pki_write_cert(handle, chainFile, 0) == 0
        else { throw TLSTestError("cannot write the certificate's files in \(directory.path)") }
        if spec.issuer == .intermediate {
            do {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: chainFile))
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: try Data(contentsOf: URL(fileURLWithPath: intermediateFile)))
            } catch {
                throw TLSTestError("cannot write \(chainFile): \(error)")
            }
        }
        return TestCertificate(
            spec: spec, leafFile: leafFile, chainFile: chainFile, keyFile: keyFile,
            notAfter: now.addingTimeInterval(TimeInterval(until)), notBefore: now.addingTimeInterval(TimeInterval(from)))
    }

    /// A file of `certificate`'s chain followed by copies of the intermediate until it holds at least `bytes`
    /// bytes: a chain no client should accept to read.
    ///
    /// - Returns: The file's path.
    /// - Throws: ``TLSTestError`` when it cannot be written.
    package func paddedChain(of certificate: TestCertificate, toAtLeast bytes: Int) throws(TLSTestError) -> String {
        let path = certificate.chainFile.replacingOccurrences(of: "-chain.pem", with: "-padded.pem")
        do {
            var data = try Data(contentsOf: URL(fileURLWithPath: certificate.chainFile))
            let intermediate = try Data(contentsOf: URL(fileURLWithPath: intermediateFile))
            while data.count < bytes { data += intermediate }
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw TLSTestError("cannot write \(path): \(error)")
        }
        return path
    }

    private static func seconds(_ duration: Duration) -> Int64 { duration.components.seconds }

    private static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    private static func lastError() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        ulk_ssl_error(&buffer, buffer.count)
        let text = TLSTestError.text(buffer)
        return text.isEmpty ? "OpenSSL gave no reason" : text
    }
}
