import Foundation
import UniversalLinkKit
#if canImport(Glibc)
import Glibc
#endif

/// The addresses the doctor's own TLS connections may go to: a host's addresses, each public unless local hosts
/// are allowed, the same ranges the resolver's transport refuses (loopback, private, link-local and cloud
/// metadata, documentation, multicast and reserved ranges, and IPv6 forms that embed such an IPv4 address).
///
/// The doctor resolves a name once and connects only to the addresses that passed, so a second lookup cannot
/// answer differently.
enum AddressScreen {
    /// The addresses of `host` (an IP literal: itself), canonical, duplicates dropped.
    ///
    /// - Throws: A message when the name does not resolve, or when an address is not public and local ones are
    ///   not allowed.
    static func addresses(of host: String, allowsLocalAddresses: Bool) async throws(ScreenRefusal) -> [String] {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let texts: [String]
        if bytes(of: bare) != nil {
            texts = [bare]
        } else {
            do {
                texts = try await NameResolver.system.addresses(of: bare)
            } catch {
                throw ScreenRefusal(message: "\(bare) does not resolve (\(error))")
            }
        }
        var addresses: [String] = []
        for text in texts {
            guard let bytes = bytes(of: text) else {
                throw ScreenRefusal(message: "\(bare) resolved to \(text), which is not an IP address")
            }
            if !allowsLocalAddresses, !isPublic(bytes) {
                throw ScreenRefusal(message: "\(bare) resolves to \(text), which is not a public address")
            }
            let canonical = canonicalText(bytes)
            if !addresses.contains(canonical) { addresses.append(canonical) }
        }
        guard !addresses.isEmpty else { throw ScreenRefusal(message: "\(bare) has no address") }
        return addresses
    }

    /// Why an address was refused.
    struct ScreenRefusal: Error, Sendable {
        var message: String
    }

    static func isIPLiteral(_ text: String) -> Bool { bytes(of: text) != nil }

    /// The address's bytes (4 or 16), or `nil` when `text` is not a numeric IP address.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// `127.0.0.1`, `::1`: the form libcurl reports the address it connected to in.
    private static func canonicalText(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let text = bytes.withUnsafeBytes { raw in
            buffer.withUnsafeMutableBufferPointer { out in
                inet_ntop(family, raw.baseAddress, out.baseAddress, socklen_t(out.count)).map { _ in
                    String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
            }
        }
        return text ?? ""
    }

    /// Whether the address is a public unicast address.
    static func isPublic(_ b: [UInt8]) -> Bool {
        if b.count == 4 { return isPublicIPv4(b[0], b[1], b[2]) }
        guard b.count == 16 else { return false }
        let zeroTo = { (end: Int) in b[0..<end].allSatisfy { $0 == 0 } }
        if zeroTo(10), b[10] == 0xff, b[11] == 0xff { return isPublicIPv4(b[12], b[13], b[14]) }
        if zeroTo(8), b[8] == 0xff, b[9] == 0xff, b[10] == 0, b[11] == 0 { return isPublicIPv4(b[12], b[13], b[14]) }
        if zeroTo(12) { return false }
        if b[0] == 0, b[1] == 0x64, b[2] == 0xff, b[3] == 0x9b {
            return b[4..<12].allSatisfy { $0 == 0 } && isPublicIPv4(b[12], b[13], b[14])
        }
        if b[0] == 0x20, b[1] == 0x02 { return isPublicIPv4(b[2], b[3], b[4]) }
        guard b[0] & 0xe0 == 0x20 else { return false }
        if b[0] == 0x20, b[1] == 0x01, b[2] < 0x02 { return false }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0d, b[3] == 0xb8 { return false }
        return true
    }

    private static func isPublicIPv4(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Bool {
        switch (a, b, c) {
        case (0, _, _), (10, _, _), (127, _, _): false
        case (100, 64...127, _): false
        case (169, 254, _): false
        case (172, 16...31, _): false
        case (192, 0, 0), (192, 0, 2), (192, 88, 99), (192, 168, _): false
        case (198, 18...19, _), (198, 51, 100), (203, 0, 113): false
        case (224..., _, _): false
        default: true
        }
    }
}
