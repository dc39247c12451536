import Foundation
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// SSRF by address: every address a name resolves to is checked, and the connection goes to the address checked.
struct AddressCheckTests {
    static let local = [
        "127.0.0.1", "127.1.2.3", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
        "100.64.0.1", "100.100.100.200", "0.0.0.0", "0.1.2.3", "224.0.0.1", "239.255.255.250", "240.0.0.1",
        "255.255.255.255", "192.0.2.1", "198.18.0.1", "203.0.113.5",
        "::", "::1", "fe80::1", "fc00::1", "fd00:ec2::254", "ff02::1", "fec0::1", "::ffff:127.0.0.1",
        "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1", "::ffff:0:127.0.0.1", "64:ff9b::a9fe:a9fe",
        "64:ff9b:1::1", "2002:7f00:1::1", "2001::1", "2001:db8::1", "100::1",
    ]
    static let publicAddresses = ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:2800:220:1::1", "::ffff:8.8.8.8", "64:ff9b::808:808"]

    @Test(arguments: local)
    func aNonPublicAddressIsNotPublic(_ address: String) throws {
        let parsed = try #require(CheckedAddress.parse(address))
        #expect(!CheckedAddress.isPublic(parsed.bytes))
    }

    @Test(arguments: publicAddresses)
    func aPublicAddressIsPublic(_ address: String) throws {
        let parsed = try #require(CheckedAddress.parse(address))
        #expect(CheckedAddress.isPublic(parsed.bytes))
    }

    static func resolver(_ names: [String: [String]], allowsLocal: Bool = false) throws -> TestResolver {
        let transport = try #require(CurlTransport.make(nameResolver: .table(names)))
        // A hang detector, not a timing: these tests check addresses, and a TSan run with the tests in parallel on busy
        // cores can take tens of seconds to get a table lookup done.
        var configuration = LinkManager.Configuration.Resolution(timeout: .seconds(600))
        configuration.policy.allowsLocalHosts = allowsLocal
        configuration.policy.allowsHTTP = allowsLocal
        return TestResolver(configuration: configuration, transport: transport)
    }

    @Test(arguments: ["127.0.0.1", "169.254.169.254", "10.0.0.7", "::1", "::ffff:127.0.0.1", "fd00:ec2::254"])
    func aNameThatResolvesToALocalAddressIsRefused(_ address: String) async throws {
        let resolver = try Self.resolver(["metadata.example.com": ["93.184.216.34", address]])
        let error = await #expect(throws: LinkError.self) {
            try await resolver.resolve(URL(string: "https://metadata.example.com/pub/acc?_ri_=1")!)
        }
        #expect(error?.code == .hostNotAllowed)
        #expect(error?.message.contains(address) == true || error?.message.contains("not a public address") == true)
    }

    @Test func aNameThatResolvesToTheStubIsRefusedWithoutAConnection() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": HostileServerTests.product])
        defer { stub.shutdown() }
        // The transport itself (the resolver's policy refuses other ports than 80 and 443 before it when local
        // hosts are not allowed): plain http to the stub's own port, the name pinned to 127.0.0.1. Without the
        // address check, the request would reach the stub.
        let transport = try #require(CurlTransport.make(nameResolver: .table(["metadata.example.com": ["127.0.0.1"]])))
        let url = try #require(URL(string: "http://metadata.example.com:\(stub.port)/pub/acc?_ri_=1"))
        await #expect(throws: TransportError(.addressNotAllowed, detail: "metadata.example.com resolves to 127.0.0.1, which is not a public address")) {
            try await transport.send(TransportRequest(url: url), maxBodyBytes: 1024)
        }
        #expect(stub.connectionCount == 0)
        // Allowed, the same request reaches the stub: the count above could have moved.
        _ = try await transport.send(TransportRequest(url: url, allowsLocalAddresses: true), maxBodyBytes: 1024)
        #expect(stub.requests.count == 1)
    }

    @Test func theSystemResolverIsCheckedToo() async throws {
        // /etc/hosts names for local addresses (localhost, the machine's own name) are names to the policy: the
        // transport's system lookup is what refuses them, before any connection to the stub on that port.
        let stub = try ResponseHandlerStub(links: ["/pub/acc": HostileServerTests.product])
        defer { stub.shutdown() }
        let transport = try #require(CurlTransport.make())
        var refused: [String] = []
        for name in ["localhost", ProcessInfo.processInfo.hostName] {
            let addresses = (try? await NameResolver.system.addresses(of: name)) ?? []
            // A machine name that resolves to public addresses only (or not at all) proves nothing here.
            guard addresses.contains(where: { !CheckedAddress.isPublic(CheckedAddress.parse($0)?.bytes ?? []) }) else { continue }
            let request = TransportRequest(url: URL(string: "http://\(name):\(stub.port)/pub/acc?_ri_=system")!)
            do {
                _ = try await transport.send(request, maxBodyBytes: 1024)
                Issue.record("\(name) (\(addresses)) was sent")
            } catch let error as TransportError where error.kind == .addressNotAllowed {
                refused.append(name)
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
        #expect(refused.contains("localhost"), "refused: \(refused)")
        #expect(stub.connectionCount == 0)
    }

    @Test func everyCheckedAddressIsPinnedSoAnUnreachableFirstOneIsNoFailure() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": HostileServerTests.product])
        defer { stub.shutdown() }
        // Nothing listens on [::1] at the stub's port (it binds 127.0.0.1 only): pinned to the first address
        // alone, the request could not connect at all.
        let resolver = try Self.resolver(["news.example.com": ["::1", "127.0.0.1"]], allowsLocal: true)
        let link = try await resolver.resolve(URL(string: "http://news.example.com:\(stub.port)/pub/acc?_ri_=both")!)
        #expect(link.deepLinkURL == URL(string: "example-app://products/1234"))
        #expect(stub.requests.count == 1)
    }

    @Test func theConnectionGoesToTheCheckedAddressWithoutASecondLookup() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": HostileServerTests.product])
        defer { stub.shutdown() }
        // news.example.com resolves nowhere on this machine but in the injected table: the request can only reach
        // the stub through the address that was checked.
        let resolver = try Self.resolver(["news.example.com": ["127.0.0.1"]], allowsLocal: true)
        let link = try await resolver.resolve(URL(string: "http://news.example.com:\(stub.port)/pub/acc?_ri_=pinned")!)
        #expect(link.deepLinkURL == URL(string: "example-app://products/1234"))
        #expect(stub.requests.first?.headerValues("host") == ["news.example.com:\(stub.port)"])
    }

    @Test func requestsThatTakeTurnsBetweenPortsAndAddressesEachReachTheirOwnServer() async throws {
        // The transport reuses the last request's pin while the addresses and the port stay the same: a pin kept
        // for the wrong port or address set would send these to the other stub, or nowhere.
        let (first, second) = (try ResponseHandlerStub(), try ResponseHandlerStub())
        defer { first.shutdown(); second.shutdown() }
        let transport = try #require(CurlTransport.make(nameResolver: .table([
            "one.example.com": ["127.0.0.1"], "both.example.com": ["::1", "127.0.0.1"], "dead.example.com": ["127.0.0.2"],
        ])))
        for (round, (host, stub)) in [("one", first), ("one", second), ("both", second), ("both", first), ("one", first)].enumerated() {
            let url = try #require(URL(string: "http://\(host).example.com:\(stub.port)/pub/acc?_ri_=\(round)"))
            let response = try await transport.send(TransportRequest(url: url, allowsLocalAddresses: true), maxBodyBytes: 1024)
            #expect(response.statusCode == 404)
            #expect(stub.requests.last?.target == "/pub/acc?_ri_=\(round)", "request \(round)")
        }
        #expect((first.requests.count, second.requests.count) == (3, 2))
        // Nothing listens on 127.0.0.2: right after a request to 127.0.0.1 on the same port, this one fails.
        let dead = try #require(URL(string: "http://dead.example.com:\(first.port)/pub/acc?_ri_=dead"))
        await #expect(throws: TransportError.self) {
            try await transport.send(TransportRequest(url: dead, allowsLocalAddresses: true), maxBodyBytes: 1024)
        }
        #expect(first.requests.count == 3)
    }

    @Test(arguments: 0..<4)
    func anIPv4AddressIsWrittenInDottedDecimal(octet: Int) throws {
        for value in [0, 7, 9, 10, 42, 99, 100, 199, 200, 255] {
            var octets = ["1", "20", "203", "4"]
            octets[octet] = String(value)
            let text = octets.joined(separator: ".")
            #expect(try #require(CheckedAddress.parse(text)).canonical == text)
        }
    }

    @Test func aFailedConnectionNamesTheHostAndItsAddresses() async throws {
        let stub = try ResponseHandlerStub()
        defer { stub.shutdown() }
        // Nothing listens on [::1] at the stub's port.
        let transport = try #require(CurlTransport.make(nameResolver: .table(["news.example.com": ["::1"]])))
        let url = try #require(URL(string: "http://news.example.com:\(stub.port)/pub/acc"))
        do {
            _ = try await transport.send(TransportRequest(url: url, allowsLocalAddresses: true), maxBodyBytes: 1024)
            Issue.record("connected to [::1]")
        } catch let error as TransportError {
            #expect(error.kind == .noAnswer)
            #expect(error.detail.contains("news.example.com (::1)"), "\(error)")
            #expect(!error.detail.contains("pin.invalid"), "\(error)")
        }
    }

    @Test(arguments: [
        "https://metadata/pub/acc", "https://ip6-localhost/pub/acc", "https://intranet./pub/acc",
        "https://\(String(repeating: "a", count: 64)).example.com/pub/acc",
        "https://\(Array(repeating: String(repeating: "b", count: 60), count: 5).joined(separator: ".")).com/pub/acc",
        "https://\(String(repeating: "c", count: 70_000)).com/pub/acc",
    ])
    func singleLabelAndOverlongNamesAreNotDNSNames(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(ResolutionPolicy().check(url)?.code == .hostNotAllowed)
    }

    @Test(arguments: ["https://user:s3cr3t@news.example.com/pub/acc?x=1", "https://s3cr3t@news.example.com/pub/acc"])
    func credentialsAreRefusedAndNeverRepeated(_ text: String) async throws {
        let url = try #require(URL(string: text))
        let refusal = try #require(ResolutionPolicy().check(url))
        #expect(refusal.code == .hostNotAllowed)
        #expect(!refusal.message.contains("s3cr3t"))
        let error = await #expect(throws: LinkError.self) {
            try await TestResolver(transport: ClosureTransport { _, _ in .status(200) }).resolve(url)
        }
        #expect(error?.code == .hostNotAllowed)
        #expect(error?.message.contains("s3cr3t") == false)
    }
}
