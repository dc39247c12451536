import Foundation
import Synchronization
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// Names resolved once a lifetime, on given instants and through the transport.
struct NameCacheTests {
    static let start = ContinuousClock.now

    @Test func anAnswerIsUsedUntilItsLifetimeEnds() {
        let cache = NameCache(lifetime: .seconds(60))
        cache.store(["93.184.216.34"], for: "news.example.com", at: Self.start)
        #expect(cache.addresses(of: "news.example.com", at: Self.start + .seconds(59)) == ["93.184.216.34"])
        #expect(cache.addresses(of: "other.example.com", at: Self.start) == nil)
        #expect(cache.addresses(of: "news.example.com", at: Self.start + .seconds(60)) == nil)
        #expect(cache.count == 0)
    }

    @Test func aZeroLifetimeOrAnEmptyAnswerKeepsNothing() {
        let off = NameCache(lifetime: .zero)
        off.store(["93.184.216.34"], for: "news.example.com", at: Self.start)
        #expect(off.addresses(of: "news.example.com", at: Self.start) == nil)
        let on = NameCache(lifetime: .seconds(60))
        on.store([], for: "news.example.com", at: Self.start)
        #expect(on.count == 0)
    }

    @Test func aNewNameBeyondTheCapacityDropsTheExpiredOnesThenAll() {
        let cache = NameCache(lifetime: .seconds(10), capacity: 3)
        cache.store(["1.1.1.1"], for: "a", at: Self.start)
        cache.store(["1.1.1.2"], for: "b", at: Self.start + .seconds(5))
        cache.store(["1.1.1.3"], for: "c", at: Self.start + .seconds(5))
        // "a" has expired at 11 s: only it goes.
        cache.store(["1.1.1.4"], for: "d", at: Self.start + .seconds(11))
        #expect(cache.count == 3)
        #expect(cache.addresses(of: "b", at: Self.start + .seconds(11)) == ["1.1.1.2"])
        // None has expired at 12 s: all go, and the new name stays.
        cache.store(["1.1.1.5"], for: "e", at: Self.start + .seconds(12))
        #expect(cache.count == 1)
        #expect(cache.addresses(of: "e", at: Self.start + .seconds(12)) == ["1.1.1.5"])
        // A name kept already is replaced, with nothing dropped.
        cache.store(["1.1.1.6"], for: "e", at: Self.start + .seconds(13))
        #expect(cache.addresses(of: "e", at: Self.start + .seconds(22)) == ["1.1.1.6"])
    }

    /// Counts lookups; the first `failures` fail, the next `oddAnswers` answer something that is not an address.
    final class CountingResolver: Sendable {
        let lookups = Mutex(0)
        let failures: Int
        let oddAnswers: Int
        init(failures: Int = 0, oddAnswers: Int = 0) {
            self.failures = failures
            self.oddAnswers = oddAnswers
        }

        var resolver: NameResolver {
            NameResolver { [self] _ in
                let count = lookups.withLock { $0 += 1; return $0 }
                if count <= failures { throw TransportError(.noAnswer, detail: "no such name") }
                if count <= failures + oddAnswers { return ["127.0.0.1", "cdn.example.net"] }
                return ["127.0.0.1"]
            }
        }
    }

    // An hour: the three rounds fall within it however loaded the machine is.
    @Test(arguments: [(Duration.seconds(3600), 1), (.zero, 3)])
    func theTransportLooksANameUpOncePerLifetime(lifetime: Duration, lookups: Int) async throws {
        let stub = try ResponseHandlerStub()
        defer { stub.shutdown() }
        let counting = CountingResolver()
        let transport = try #require(CurlTransport.make(
            configuration: .init(nameCacheLifetime: lifetime), nameResolver: counting.resolver))
        for round in 0..<3 {
            // The host's case differs: names are compared case-insensitively.
            let url = try #require(URL(string: "http://\(round == 1 ? "NEWS" : "news").example.com:\(stub.port)/pub/acc?_ri_=\(round)"))
            _ = try await transport.send(TransportRequest(url: url, allowsLocalAddresses: true), maxBodyBytes: 1024)
        }
        #expect(stub.requests.count == 3)
        #expect(counting.lookups.withLock { $0 } == lookups)
        // Kept or not, the addresses are checked again for every request.
        let refused = try #require(URL(string: "http://news.example.com:\(stub.port)/pub/acc?_ri_=refused"))
        await #expect(throws: TransportError(.addressNotAllowed, detail: "news.example.com resolves to 127.0.0.1, which is not a public address")) {
            try await transport.send(TransportRequest(url: refused), maxBodyBytes: 1024)
        }
        #expect(stub.requests.count == 3)
    }

    @Test(arguments: [(1, 0), (0, 1)])
    func aFailedLookupOrAnAnswerThatIsNotAnAddressIsNotKept(failures: Int, oddAnswers: Int) async throws {
        let stub = try ResponseHandlerStub()
        defer { stub.shutdown() }
        let counting = CountingResolver(failures: failures, oddAnswers: oddAnswers)
        let transport = try #require(CurlTransport.make(nameResolver: counting.resolver))
        let url = try #require(URL(string: "http://news.example.com:\(stub.port)/pub/acc?_ri_=1"))
        await #expect(throws: TransportError.self) {
            try await transport.send(TransportRequest(url: url, allowsLocalAddresses: true), maxBodyBytes: 1024)
        }
        _ = try await transport.send(TransportRequest(url: url, allowsLocalAddresses: true), maxBodyBytes: 1024)
        #expect(counting.lookups.withLock { $0 } == 2)
        #expect(stub.requests.count == 1)
    }

    @Test func aNameOutsideASCIIIsNeverKeptNorTakenForItsASCIIFolding() async throws {
        // U+212A KELVIN SIGN lower-cases to "k": kept under a Unicode folding, this name would get the addresses of
        // key.example.com. The lookup compares bytes (ASCII letters in either case), and answers nothing for it.
        let counting = Mutex(0)
        let resolver = NameResolver { name in
            counting.withLock { $0 += 1 }
            return name == "key.example.com" ? ["93.184.216.34"] : []
        }
        let cache = NameCache(lifetime: .seconds(60))
        let key = try await CheckedAddress.resolve("key.example.com", with: resolver, allowsLocalAddresses: false, cache: cache)
        #expect(key.map(\.text) == ["93.184.216.34"])
        for _ in 0..<2 {
            await #expect(throws: TransportError(.noAnswer, detail: "\u{212A}ey.example.com has no address")) {
                try await CheckedAddress.resolve("\u{212A}ey.example.com", with: resolver, allowsLocalAddresses: false, cache: cache)
            }
        }
        _ = try await CheckedAddress.resolve("key.EXAMPLE.com", with: resolver, allowsLocalAddresses: false, cache: cache)
        #expect(counting.withLock { $0 } == 3)
    }
}
