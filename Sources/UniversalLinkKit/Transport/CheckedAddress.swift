import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// An IP address that passed the address check, in canonical text, for the transport to connect to (and for the
/// link doctor's own TLS connections: one rule for every connection the package opens).
///
/// Public addresses only, unless local ones are allowed. Not public (the ranges Stripe's Smokescreen and Python's
/// `advocate` deny): IPv4 0/8, 10/8, 100.64/10 (shared, and Alibaba's metadata address), 127/8, 169.254/16
/// (link-local and the cloud metadata address 169.254.169.254), 172.16/12, 192.0.0/24, 192.0.2/24,
/// 192.88.99/24, 192.168/16, 198.18/15, 198.51.100/24, 203.0.113/24, 224/4 (multicast), 240/4 (reserved) and
/// the broadcast address; IPv6 outside 2000::/3 (so `::`, `::1`, fc00::/7 with AWS's fd00:ec2::254, fe80::/10,
/// fec0::/10, ff00::/8, 100::/64), 2001::/23 (Teredo and other protocol assignments), 2001:db8::/32, and the
/// IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96), IPv4-translated (::ffff:0:0:0/96) and NAT64
/// (64:ff9b::/96, 64:ff9b:1::/48) forms and 6to4 (2002::/16), judged by the IPv4 address they embed.
package struct CheckedAddress: Sendable, Hashable {
    /// Canonical text (`127.0.0.1`, `::1`), as libcurl reports the address it connected to.
    package let text: String
    package let isIPv6: Bool

    /// Resolves `host` (an IP literal is its own address) and checks every address it resolves to.
    ///
    /// - Returns: Every address, in the resolver's order, duplicates dropped (never empty): the connection may
    ///   go to any of them.
    /// - Throws: ``TransportError`` `addressNotAllowed` when one address is not public and local addresses are
    ///   not allowed, `noAnswer` when the name does not resolve.
    package static func resolve(
        _ host: String, with resolver: NameResolver, allowsLocalAddresses: Bool, deadline: ContinuousClock.Instant? = nil,
        cache: NameCache? = nil
    ) async throws -> [CheckedAddress] {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let literal = parse(bare) { return [try checked(literal, of: bare, allowsLocalAddresses: allowsLocalAddresses)] }
        let key = cacheKey(bare)
        let cached = key.flatMap { cache?.addresses(of: $0, at: .now) }
        let texts = if let cached { cached } else { try await lookUp(bare, with: resolver, deadline: deadline) }
        var addresses: [CheckedAddress] = []
        for text in texts {
            guard let parsed = parse(text) else {
                throw TransportError(.noAnswer, detail: "\(bare) resolved to \(text), which is not an IP address")
            }
            let address = try checked(parsed, of: bare, allowsLocalAddresses: allowsLocalAddresses)
            if !addresses.contains(address) { addresses.append(address) }
        }
        guard !addresses.isEmpty else { throw TransportError(.noAnswer, detail: "\(bare) has no address") }
        // Kept only once every address has parsed: an answer that is not one fails its request, and is asked again.
        if cached == nil, let key { cache?.store(texts, for: key, at: .now) }
        return addresses
    }

    /// The key `host`'s answer is kept under: the name lower-cased, as the lookup compares names; `nil` for a name
    /// outside ASCII (which `String` equality would match to other spellings): it is never kept.
    private static func cacheKey(_ host: String) -> String? {
        host.unicodeScalars.allSatisfy(\.isASCII) ? host.lowercased() : nil
    }

    /// What `resolver` answers for `host`, by `deadline`.
    private static func lookUp(_ host: String, with resolver: NameResolver, deadline: ContinuousClock.Instant?) async throws -> [String] {
        do {
            if let deadline {
                // The lookup may ignore cancellation (`getaddrinfo` does): the deadline is kept around it.
                return try await withDeadline(deadline, clock: .continuous) { try await resolver.addresses(of: host) }
            }
            return try await resolver.addresses(of: host)
        } catch is DeadlineExceeded {
            throw TransportError(.timedOut, detail: "not sent: \(host) did not resolve by the deadline")
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as TransportError {
            throw error
        } catch {
            throw TransportError(.noAnswer, detail: "\(host) does not resolve (\(error))")
        }
    }

    /// The address `host` resolved to (an IP literal: itself), when it passes the check.
    private static func checked(
        _ parsed: (bytes: [UInt8], canonical: String), of host: String, allowsLocalAddresses: Bool
    ) throws -> CheckedAddress {
        if !allowsLocalAddresses, !isPublic(parsed.bytes) {
            throw TransportError(.addressNotAllowed, detail: "\(host) resolves to \(parsed.canonical), which is not a public address")
        }
        return CheckedAddress(text: parsed.canonical, isIPv6: parsed.bytes.count == 16)
    }

    /// The address's bytes (4 or 16) and canonical text, or `nil` when `text` is not a numeric IP address.
    package static func parse(_ text: String) -> (bytes: [UInt8], canonical: String)? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            let bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return (bytes, bytes.map(String.init).joined(separator: "."))
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let canonical = buffer.withUnsafeMutableBufferPointer { out in
            inet_ntop(AF_INET6, &v6, out.baseAddress, socklen_t(out.count)).map { String(cString: $0) }
        }
        return (withUnsafeBytes(of: &v6) { Array($0) }, canonical ?? text)
    }

    /// Whether the address (4 or 16 bytes) is a public unicast address; see the type's documentation.
    package static func isPublic(_ b: [UInt8]) -> Bool {
        if b.count == 4 { return isPublicIPv4(b[0], b[1], b[2], b[3]) }
        guard b.count == 16 else { return false }
        let zeroTo = { (end: Int) in b[0..<end].allSatisfy { $0 == 0 } }
        // IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d: never connected
        // to as IPv6 by a legitimate server; judged as the IPv4 address they carry, and refused when local.
        if zeroTo(10), b[10] == 0xff, b[11] == 0xff { return isPublicIPv4(b[12], b[13], b[14], b[15]) }
        if zeroTo(8), b[8] == 0xff, b[9] == 0xff, b[10] == 0, b[11] == 0 { return isPublicIPv4(b[12], b[13], b[14], b[15]) }
        if zeroTo(12) { return false }  // ::, ::1 and IPv4-compatible
        // NAT64 64:ff9b::/96 carries an IPv4 address; the local-use 64:ff9b:1::/48 is private.
        if b[0] == 0, b[1] == 0x64, b[2] == 0xff, b[3] == 0x9b {
            if b[4..<12].allSatisfy({ $0 == 0 }) { return isPublicIPv4(b[12], b[13], b[14], b[15]) }
            return false
        }
        // 6to4 2002:AABB:CCDD::/48 carries AA.BB.CC.DD.
        if b[0] == 0x20, b[1] == 0x02 { return isPublicIPv4(b[2], b[3], b[4], b[5]) }
        guard b[0] & 0xe0 == 0x20 else { return false }  // only 2000::/3 is global unicast
        if b[0] == 0x20, b[1] == 0x01, b[2] < 0x02 { return false }  // 2001::/23, Teredo 2001::/32 included
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0d, b[3] == 0xb8 { return false }  // 2001:db8::/32
        return true
    }

    static func isPublicIPv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Bool {
        switch (a, b, c) {
        case (0, _, _), (10, _, _), (127, _, _): return false
        case (100, 64...127, _): return false
        case (169, 254, _): return false
        case (172, 16...31, _): return false
        case (192, 0, 0), (192, 0, 2), (192, 88, 99), (192, 168, _): return false
        case (198, 18...19, _), (198, 51, 100), (203, 0, 113): return false
        case (224..., _, _): return false  // multicast 224/4, reserved 240/4, broadcast
        default: return true
        }
    }
}
