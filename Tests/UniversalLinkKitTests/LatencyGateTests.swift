import Dispatch
import Foundation
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// A request is not started when its caller's remaining deadline is shorter than what answers from its host
/// currently take: a burst queued behind the per-host limit must not count clicks for callers that were already
/// told the link timed out. The Response Handler "takes 20 s" on an injected clock: it holds each answer until the
/// test has moved the clock on by 20 s and lets a batch go. libcurl keeps its own timer of the time left, on the real
/// clock: the injected spans are long enough that no loaded machine reaches it first.
struct LatencyGateTests {
    static let link = ResponseHandlerStub.Link(webLinkUrl: "https://www.example.com/p/1", mobileDeepLinkUrl: nil)

    @Test func aBurstBehindTheStreamLimitCountsOnlyClicksWhoseCallersGetTheAnswer() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.link])
        defer { stub.shutdown() }
        let release = DispatchSemaphore(value: 0)
        stub.setResponder { _ in
            release.wait()
            return nil
        }
        let clock = ManualClock()
        let transport = try #require(CurlTransport.make(
            configuration: .init(maximumConcurrentRequestsPerHost: 16), nameResolver: .system, clock: clock.linkClock))
        defer { transport.shutdown() }
        var configuration = LinkManager.Configuration.Resolution(timeout: .seconds(50))
        configuration.policy = ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true)
        let manager = LinkManager(
            configuration: .init(resolution: configuration), transport: transport,
            notificationCenter: NotificationCenter(), clock: clock.linkClock)
        let results = Task {
            await withTaskGroup(of: (Int, LinkError.Code?).self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let outcome = try? await manager.resolve(stub.url("/pub/acc?_ri_=\(index)"))
                        return (index, outcome?.resolvedLink?.error?.code)
                    }
                }
                return await group.reduce(into: [Int: LinkError.Code?]()) { $0[$1.0] = $1.1 }
            }
        }
        // Sixteen requests in flight, the other 84 queued for a slot. Each batch takes 20 s of the clock.
        #expect(await stub.waitForRequests(16, timeout: .seconds(300)))
        clock.advance(by: .seconds(20))
        for _ in 0..<16 { release.signal() }
        // With 30 s left, the next sixteen start; they take 20 s too.
        #expect(await stub.waitForRequests(32, timeout: .seconds(300)))
        clock.advance(by: .seconds(20))
        for _ in 0..<16 { release.signal() }
        // 10 s left: less than the host's answers take, so no other request is sent.
        let outcomes = await results.value
        let answered = Set(outcomes.filter { $0.value == nil }.map(\.key))
        let refused = outcomes.filter { $0.value == .timeout }.count
        #expect(answered.count == 32)
        #expect(refused == 68)
        // Every click the server counted belongs to a caller who got the link's answer.
        let counted = Set(stub.requests(for: "/pub/acc").compactMap { $0.query.flatMap { Int($0.dropFirst(5)) } })
        #expect(counted == answered)
        await manager.shutdown()
    }

    @Test func aLinkWhoseDeadlineIsShorterThanTheHostsAnswersFailsAtOnceWithoutARequest() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.link])
        defer { stub.shutdown() }
        let release = DispatchSemaphore(value: 0)
        stub.setResponder { _ in
            release.wait()
            return nil
        }
        let clock = ManualClock()
        let transport = try #require(CurlTransport.make(nameResolver: .system, clock: clock.linkClock))
        defer { transport.shutdown() }
        var configuration = LinkManager.Configuration.Resolution(timeout: .seconds(10))
        configuration.policy = ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true)
        let manager = LinkManager(
            configuration: .init(resolution: configuration), transport: transport,
            notificationCenter: NotificationCenter(), clock: clock.linkClock)
        let first = Task { try await manager.resolve(stub.url("/pub/acc?_ri_=first")) }
        #expect(await stub.waitForRequests(1, timeout: .seconds(300)))
        clock.advance(by: .seconds(3))
        release.signal()
        #expect(try await first.value.resolvedLink?.error == nil)
        // Answers take 3 s; a caller with 2 s gets its timeout at once, and the server sees nothing.
        let late = try await manager.resolve(stub.url("/pub/acc?_ri_=late"), timeout: .seconds(2))
        let error = try #require(late.resolvedLink?.error)
        #expect(error.code == .timeout)
        #expect(error.message.contains("currently take 3 s"), "\(error.message)")
        #expect(stub.requests.count == 1)
        // A caller with the whole deadline is served.
        let whole = Task { try await manager.resolve(stub.url("/pub/acc?_ri_=whole")) }
        #expect(await stub.waitForRequests(2, timeout: .seconds(300)))
        release.signal()
        #expect(try await whole.value.resolvedLink?.error == nil)
        await manager.shutdown()
    }
}
