import Foundation

/// One certificate a server sent, as libcurl's certificate information describes it: who it names and who
/// signed it, how, with what key, for which names and for how long. The transport words its TLS failures with it,
/// the link doctor judges a domain's chain with it.
package struct PeerCertificate: Sendable, Hashable {
    /// The subject, in OpenSSL's one-line form (`CN = news.example.com`).
    package var subject: String
    /// The issuer, in the same form.
    package var issuer: String
    /// The signature algorithm (`sha256WithRSAEncryption`, `ecdsa-with-SHA1`).
    package var signatureAlgorithm: String
    /// The public key algorithm (`rsaEncryption`, `id-ecPublicKey`).
    package var keyAlgorithm: String
    /// The key's size in bits: the RSA modulus, or the EC curve's order (256 for P-256); `nil` when unknown.
    package var keyBits: Int?
    package var notBefore: Date?
    package var notAfter: Date?
    /// The subjectAltName DNS names, as written (`*.example.com`).
    package var dnsNames: [String]
    /// The subjectAltName IP addresses, as OpenSSL prints them.
    package var ipAddresses: [String]

    /// Whether the certificate names itself as its issuer (a root, or a self-signed leaf).
    package var isSelfIssued: Bool { subject == issuer }

    /// Whether the key is an RSA key.
    package var isRSA: Bool { keyAlgorithm.lowercased().contains("rsa") }

    /// The subject's common name, or the whole subject.
    package var commonName: String {
        for part in subject.split(separator: ",") {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("CN = ") { return String(trimmed.dropFirst(5)) }
            if trimmed.hasPrefix("CN=") { return String(trimmed.dropFirst(3)) }
        }
        return subject
    }

    /// The issuer's common name, or the whole issuer.
    package var issuerName: String {
        PeerCertificate(
            subject: issuer, issuer: "", signatureAlgorithm: "", keyAlgorithm: "", dnsNames: [], ipAddresses: []
        ).commonName
    }

    /// Whether the signature uses SHA-1 or a weaker digest (MD5, MD4, MD2).
    package var hasWeakSignature: Bool {
        let name = signatureAlgorithm.lowercased().replacingOccurrences(of: "-", with: "")
        return ["sha1", "md5", "md4", "md2"].contains { name.contains($0) }
    }

    /// The chain in `CURLOPT_CERTINFO` text from `ulk_transfer_certinfo`: records separated by 0x1E, fields by
    /// 0x1F, each field `Name:value`.
    package static func chain(fromCertInfo text: String) -> [PeerCertificate] {
        text.split(separator: "\u{1E}", omittingEmptySubsequences: true).map { record in
            var fields: [String: String] = [:]
            for field in record.split(separator: "\u{1F}") {
                guard let colon = field.firstIndex(of: ":") else { continue }
                fields[String(field[..<colon])] = String(field[colon...].dropFirst())
            }
            var names: [String] = []
            var addresses: [String] = []
            for entry in (fields["X509v3 Subject Alternative Name"] ?? "").split(separator: ",") {
                let entry = entry.trimmingCharacters(in: .whitespaces)
                if entry.hasPrefix("DNS:") { names.append(String(entry.dropFirst(4))) }
                if entry.hasPrefix("IP Address:") { addresses.append(String(entry.dropFirst(11))) }
            }
            let keyAlgorithm = fields["Public Key Algorithm"] ?? ""
            var bits = fields["RSA Public Key"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            if bits == nil, keyAlgorithm.lowercased().contains("ec"), let pem = fields["Cert"] {
                bits = ECCurve.bits(inCertificatePEM: pem)
            }
            return PeerCertificate(
                subject: fields["Subject"] ?? "", issuer: fields["Issuer"] ?? "",
                signatureAlgorithm: fields["Signature Algorithm"] ?? "", keyAlgorithm: keyAlgorithm, keyBits: bits,
                notBefore: fields["Start date"].flatMap(Self.date), notAfter: fields["Expire date"].flatMap(Self.date),
                dnsNames: names, ipAddresses: addresses)
        }
    }

    /// OpenSSL's `Nov  9 00:38:04 2026 GMT`.
    package static func date(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy"
        let words = text.split(separator: " ").filter { $0 != "GMT" }
        return formatter.date(from: words.joined(separator: " "))
    }

    /// Whether the certificate is for `host` as Apple's clients match it: subjectAltName entries only (never
    /// the common name), case-insensitive, a wildcard standing for exactly one leftmost label, an IP address
    /// against the IP entries only.
    package func matches(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        if let bytes = CheckedAddress.parse(name)?.bytes {
            return ipAddresses.contains { CheckedAddress.parse($0)?.bytes == bytes }
        }
        return dnsNames.contains { pattern in
            var pattern = pattern.lowercased()
            if pattern.hasSuffix(".") { pattern.removeLast() }
            if pattern == name { return true }
            guard pattern.hasPrefix("*."), let dot = name.firstIndex(of: ".") else { return false }
            return name[..<dot].count > 0 && name[dot...] == pattern.dropFirst()
        }
    }

    /// The names the certificate is for, as a person reads them.
    package var namesText: String {
        let all = dnsNames + ipAddresses
        return all.isEmpty ? "no name (no subjectAltName; only \(commonName) as its common name, which clients ignore)"
            : all.joined(separator: ", ")
    }
}

/// The size of an EC certificate's key, from the named curve in its SubjectPublicKeyInfo (libcurl's certificate
/// information gives no size for EC keys).
package enum ECCurve {
    /// id-ecPublicKey's OID, DER encoded; the curve's OID follows it in the algorithm's parameters.
    private static let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    private static let curves: [([UInt8], Int)] = [
        ([0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07], 256),  // P-256
        ([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22], 384),  // P-384
        ([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x23], 521),  // P-521
        ([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x21], 224),  // P-224
        ([0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x01], 192),  // P-192
        ([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x0A], 256),  // secp256k1
    ]

    /// The curve's size in bits, or `nil` when the certificate names no curve this knows.
    package static func bits(inCertificatePEM pem: String) -> Int? {
        let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: base64) else { return nil }
        let bytes = [UInt8](der)
        // One forward scan: linear in the certificate's size.
        guard let start = find(ecPublicKey, in: bytes) else { return nil }
        let rest = bytes[(start + ecPublicKey.count)...]
        for (oid, bits) in curves where rest.starts(with: oid) { return bits }
        return nil
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}
