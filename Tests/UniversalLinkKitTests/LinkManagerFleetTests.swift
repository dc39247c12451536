import Foundation
import Synchronization
import _LinkKitLocking
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// A fleet in one process: managers sharing one ``ClaimStore`` count a click once and give every caller the same
/// answer; leases, failures and deadlines behave as ``ClaimStore`` documents.
struct LinkManagerFleetTests {
    static let product = ResponseHandlerStub.Link(
        webLinkUrl: "https://www.example.com/products/1234", mobileDeepLinkUrl: "example-app://products/1234")

    static func configuration(
        _ store: any ClaimStore, timeout: Duration = .seconds(10), failure: ClaimStoreFailurePolicy = .resolveLocally,
        events: Tally? = nil
    ) -> LinkManager.Configuration {
        var configuration = LinkManager.Configuration()
        configuration.policy = ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true)
        configuration.timeout = timeout
        configuration.claimStore = store
        configuration.claimStoreFailure = failure
        if let events { configuration.eventHandler = LinkEventHandler { events.add($0.kind.description) } }
        return configuration
    }

    /// The first replica publishes after answering its caller, on a task of its own. On a loaded machine, with the
    /// concurrency pool's threads held by CPU-heavy tests, that task waited past a 12 s lease (the claim lease is the
    /// timeout plus 2 s) in a parallel TSan run, and the second replica took the click over, as a lease that ended is
    /// meant to. Tests about what a published outcome does use a lease long enough to wait for the publish itself.
    static let publishBound: Duration = .seconds(120)

    /// The store's window where a test needs an outcome to stay published on the system's clock: longer than any
    /// load can hold the test (a parallel TSan run on busy cores can hold one for minutes). The tests about the
    /// window's end use a manual clock.
    static let longWindow: Duration = .seconds(3600)

    /// Waits until the click's outcome is in the store; a publish that never comes within the lease fails the test.
    static func waitForThePublish(of link: URL, in store: InMemoryClaimStore) async throws {
        let published = try await store.awaitOutcome(of: ClickIdentity(link), within: publishBound)
        try #require(published != nil, "the first replica never published its outcome")
    }

    @Test func threeReplicasMakeOneRequestForOneClickAndGiveEveryCallerTheSameAnswer() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        let store = InMemoryClaimStore()
        let replicas = (0..<3).map { _ in LinkManager(configuration: Self.configuration(store)) }
        let link = stub.url("/pub/acc?_ri_=fleet")
        let outcomes = try await withThrowingTaskGroup(of: LinkOutcome.self) { group in
            for index in 0..<60 { group.addTask { try await replicas[index % 3].resolve(link) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stub.requests.count == 1)
        #expect(Set(outcomes.map(\.resolvedLink?.deepLinkURL)) == [URL("example-app://products/1234")])
        #expect(outcomes.filter { !$0.isDuplicate }.count == 1)
        #expect(store.wonCount == 1)
        for replica in replicas { await replica.shutdown() }
    }

    @Test func aClickResolvedByAnotherReplicaWithinTheWindowIsAnsweredWithoutARequest() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        let store = InMemoryClaimStore(window: Self.longWindow)
        let (firstEvents, secondEvents) = (Tally(), Tally())
        let first = LinkManager(
            configuration: Self.configuration(store, timeout: Self.publishBound, events: firstEvents))
        let second = LinkManager(
            configuration: Self.configuration(store, timeout: Self.publishBound, events: secondEvents))
        let link = stub.url("/pub/acc?_ri_=settled")
        let original = try await first.resolve(link)
        try await Self.waitForThePublish(of: link, in: store)
        let again = try await second.resolve(link)
        #expect(stub.requests.count == 1)
        #expect(!original.isDuplicate)
        #expect(again.isDuplicate)
        // The replica that sent nothing says so with its own kind of event, then ends the link as usual.
        #expect(firstEvents.all["joined"] == nil)
        #expect(secondEvents.all["joined"] == 1)
        #expect(secondEvents.all["coalesced"] == nil)
        #expect(secondEvents.all["resolved"] == 1)
        #expect(again.resolvedLink?.deepLinkURL == original.resolvedLink?.deepLinkURL)
        #expect(again.resolvedLink?.webLinkURL == original.resolvedLink?.webLinkURL)
        #expect(again.resolvedLink?.requestedURL == link)
    }

    @Test func aFailedResolutionIsSharedWithItsCodeAndStatus() async throws {
        let stub = try ResponseHandlerStub()
        defer { stub.shutdown() }
        stub.setDefaultBehavior(.status(404))
        let store = InMemoryClaimStore(window: Self.longWindow)
        let link = stub.url("/pub/acc?_ri_=gone")
        let first = LinkManager(configuration: Self.configuration(store, timeout: Self.publishBound))
        let second = LinkManager(configuration: Self.configuration(store, timeout: Self.publishBound))
        let original = try #require(try await first.resolve(link).resolvedLink?.error)
        try await Self.waitForThePublish(of: link, in: store)
        let requests = stub.requests.count
        let shared = try #require(try await second.resolve(link).resolvedLink?.error)
        #expect(original.code == .httpStatus)
        #expect(shared.code == original.code)
        #expect(shared.statusCode == 404)
        // No message crosses processes (it names the link); this one words its own, with the code and status.
        #expect(shared.message.contains("another replica failed: httpStatus (status 404)"), "\(shared.message)")
        #expect(stub.requests.count == requests)
        #expect(store.wonCount == 1)
    }

    @Test func aDeadHoldersClickIsTakenOverWhenItsLeaseEnds() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        let clock = ManualClock()
        let store = InMemoryClaimStore(clock: clock.linkClock)
        let link = stub.url("/pub/acc?_ri_=takeover")
        // A replica claimed the click and died before publishing anything.
        guard case .won = try await store.claim(ClickIdentity(link), lease: .seconds(3)) else {
            Issue.record("the first claim must win")
            return
        }
        let survivor = LinkManager(configuration: Self.configuration(store), clock: clock.linkClock)
        let task = Task { try await survivor.resolve(link) }
        // The survivor waits on the dead holder's lease, on the injected clock.
        #expect(await clock.wait { _ in store.joinedCount == 1 })
        #expect(await clock.wait { $0.pendingDeadlines >= 2 })
        #expect(stub.requests.count == 0)
        clock.advance(by: .seconds(3))
        let outcome = try await task.value
        #expect(outcome.resolvedLink?.deepLinkURL == URL("example-app://products/1234"))
        #expect(!outcome.isDuplicate)
        #expect(stub.requests.count == 1)
        #expect(store.takeoverCount == 1)
    }

    @Test func aStaleHolderCannotPublishOverATakeover() async throws {
        let clock = ManualClock()
        let store = InMemoryClaimStore(clock: clock.linkClock)
        let click = ClickIdentity(URL("https://news.example.com/pub/acc?_ri_=stale"))
        guard case let .won(stale) = try await store.claim(click, lease: .seconds(1)) else { Issue.record("no win"); return }
        clock.advance(by: .seconds(1))
        guard case let .won(fresh) = try await store.claim(click, lease: .seconds(1)) else { Issue.record("no takeover"); return }
        #expect(fresh.isTakeover)
        #expect(fresh.token != stale.token)
        try await store.publish(SharedOutcome(errorCode: .timeout), of: click, ticket: stale)
        try await store.publish(SharedOutcome(deepLinkURL: URL("example-app://fresh")), of: click, ticket: fresh)
        #expect(try await store.claim(click, lease: .seconds(1)) == .settled(SharedOutcome(deepLinkURL: URL("example-app://fresh"))))
    }

    @Test func aFailingStoreResolvesLocallyByDefaultAndSaysSo() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        let store = InMemoryClaimStore()
        store.isFailing = true
        let events = Tally()
        let manager = LinkManager(configuration: Self.configuration(store, events: events))
        let outcome = try await manager.resolve(stub.url("/pub/acc?_ri_=down"))
        #expect(outcome.resolvedLink?.deepLinkURL == URL("example-app://products/1234"))
        #expect(stub.requests.count == 1)
        #expect(events.all["claimStoreFailed", default: 0] >= 1)
    }

    @Test func aFailingStoreWithRejectSendsNothingAndAnswersClaimStoreUnavailable() async throws {
        let stub = try ResponseHandlerStub(links: ["/pub/acc": Self.product])
        defer { stub.shutdown() }
        let store = InMemoryClaimStore()
        store.isFailing = true
        let manager = LinkManager(configuration: Self.configuration(store, failure: .reject))
        let outcome = try await manager.resolve(stub.url("/pub/acc?_ri_=down"))
        #expect(outcome.resolvedLink?.error?.code == .claimStoreUnavailable)
        #expect(outcome.resolvedLink?.error?.message.contains("claim store") == true)
        #expect(stub.requests.count == 0)
        // The store is back: the same manager claims again, with no restart.
        store.isFailing = false
        let later = try await manager.resolve(stub.url("/pub/acc?_ri_=back"))
        #expect(later.resolvedLink?.deepLinkURL == URL("example-app://products/1234"))
        #expect(stub.requests.count == 1)
    }

    @Test func aStoreThatNeverAnswersCannotHoldACallerPastItsDeadline() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport()
        var configuration = Self.configuration(HangingClaimStore(), timeout: .seconds(5))
        configuration.policy = ResolutionPolicy()
        let manager = LinkManager(configuration: configuration, transport: transport, clock: clock.linkClock)
        let task = Task { try await manager.resolve(URL("https://news.example.com/pub/acc?_ri_=hang")) }
        #expect(await clock.wait { $0.pendingDeadlines >= 1 })
        clock.advance(by: .seconds(5))
        let outcome = try await task.value
        #expect(outcome.resolvedLink?.error?.code == .timeout)
        #expect(transport.count == 0)
    }

    /// The PostgreSQL store's wait for another replica's outcome ends with `CancellationError` when the time left
    /// passes, which may come a moment before the manager's own deadline entry runs: the caller is told `timeout`.
    @Test func aStoreWaitThatRunsOutOfTimeLeftIsATimeoutNotACancellation() async throws {
        let transport = ScriptedTransport()
        var configuration = Self.configuration(OutOfTimeClaimStore(), timeout: .seconds(5))
        configuration.policy = ResolutionPolicy()
        let manager = LinkManager(configuration: configuration, transport: transport)
        let outcome = try await manager.resolve(URL("https://news.example.com/pub/acc?_ri_=held"))
        #expect(outcome.resolvedLink?.error?.code == .timeout)
        #expect(transport.count == 0)
    }

    @Test func withoutAStoreNothingIsClaimedBeyondTheProcess() async throws {
        let transport = ScriptedTransport(fallback: { _ in .json(LinkManagerTests.both) })
        let manager = LinkManager(transport: transport)
        _ = try await manager.resolve(LinkManagerTests.appLink)
        #expect(manager.configuration.claimStore == nil)
        #expect(transport.count == 1)
    }
}

/// A store whose every call waits until cancelled: a database that accepted the connection and never answers.
struct HangingClaimStore: ClaimStore {
    func hang() async throws -> Never {
        while true { try await Task.sleep(for: .seconds(3600)) }
    }

    func claim(_ click: ClickIdentity, lease: Duration) async throws -> SharedClaim { try await hang() }
    func publish(_ outcome: SharedOutcome, of click: ClickIdentity, ticket: ClaimTicket) async throws { try await hang() }
    func release(_ click: ClickIdentity, ticket: ClaimTicket) async throws { try await hang() }
    func awaitOutcome(of click: ClickIdentity, within timeLeft: Duration) async throws -> SharedOutcome? { try await hang() }
}

/// A store where another replica holds every click, and whose wait for its outcome runs out of time at once.
struct OutOfTimeClaimStore: ClaimStore {
    func claim(_ click: ClickIdentity, lease: Duration) async throws -> SharedClaim { .heldElsewhere }
    func publish(_ outcome: SharedOutcome, of click: ClickIdentity, ticket: ClaimTicket) async throws {}
    func release(_ click: ClickIdentity, ticket: ClaimTicket) async throws {}
    func awaitOutcome(of click: ClickIdentity, within timeLeft: Duration) async throws -> SharedOutcome? {
        throw CancellationError()
    }
}

/// What a replica remembers for the duplicate window after a fleet wait.
struct LinkManagerFleetWindowTests {
    @Test func aReplicaThatOnlyWaitedForAnotherDoesNotAnswerItsRetryWithTheTimeout() async throws {
        let clock = ManualClock()
        let store = InMemoryClaimStore(window: .seconds(60), clock: clock.linkClock)
        let transport = ScriptedTransport()
        var configuration = LinkManagerFleetTests.configuration(store, timeout: .seconds(1))
        configuration.policy = ResolutionPolicy()
        let manager = LinkManager(configuration: configuration, transport: transport, clock: clock.linkClock)
        let link = URL("https://news.example.com/pub/acc?_ri_=slow-holder")
        // Another replica holds the click for a long lease and is slow to answer.
        guard case let .won(holder) = try await store.claim(ClickIdentity(link), lease: .seconds(30)) else {
            Issue.record("the holder's claim must win")
            return
        }
        let first = Task { try await manager.resolve(link) }
        #expect(await clock.wait { _ in store.joinedCount == 1 })
        #expect(await clock.wait { $0.pendingDeadlines >= 2 })
        clock.advance(by: .seconds(1))
        #expect(try await first.value.resolvedLink?.error?.code == .timeout)
        // The holder answers; the user retries at once, within the window: the retry gets the holder's answer, not
        // the timeout this replica gave while it only waited.
        try await store.publish(SharedOutcome(deepLinkURL: URL("example-app://products/1234")), of: ClickIdentity(link), ticket: holder)
        let retry = try await manager.resolve(link)
        #expect(retry.resolvedLink?.deepLinkURL == URL("example-app://products/1234"))
        #expect(retry.isDuplicate)
        #expect(transport.count == 0)
    }

    @Test func aTimeoutOfAResolutionSentHereIsStillRememberedForTheWindow() async throws {
        let clock = ManualClock()
        let store = InMemoryClaimStore(window: .seconds(60), clock: clock.linkClock)
        let transport = ScriptedTransport(fallback: { _ in
            try await Task.sleep(for: .seconds(3600))
            return .json(LinkManagerTests.both)
        })
        var configuration = LinkManagerFleetTests.configuration(store, timeout: .seconds(1))
        configuration.policy = ResolutionPolicy()
        let manager = LinkManager(configuration: configuration, transport: transport, clock: clock.linkClock)
        let link = URL("https://news.example.com/pub/acc?_ri_=sent-here")
        let first = Task { try await manager.resolve(link) }
        await transport.waitForRequests(1)
        clock.advance(by: .seconds(1))
        #expect(try await first.value.resolvedLink?.error?.code == .timeout)
        // The request may have been counted: a retry within the window gets the same answer and sends nothing.
        let retry = try await manager.resolve(link)
        #expect(retry.resolvedLink?.error?.code == .timeout)
        #expect(retry.isDuplicate)
        #expect(transport.count == 1)
    }
}

/// How the winner of a click settles its claim when its resolution is cut short.
struct LinkManagerFleetSettleTests {
    static func hanging() -> ScriptedTransport {
        ScriptedTransport(fallback: { _ in
            try await Task.sleep(for: .seconds(3600))
            return .json(LinkManagerTests.both)
        })
    }

    static func manager(_ store: InMemoryClaimStore, _ transport: ScriptedTransport, _ clock: ManualClock) -> LinkManager {
        var configuration = LinkManagerFleetTests.configuration(store, timeout: .seconds(1))
        configuration.policy = ResolutionPolicy()
        return LinkManager(configuration: configuration, transport: transport, clock: clock.linkClock)
    }

    @Test func aWinnerCutByItsDeadlinePublishesTheTimeoutSoNoOtherReplicaSendsAgain() async throws {
        let clock = ManualClock()
        let store = InMemoryClaimStore(window: .seconds(60), clock: clock.linkClock)
        let (sentA, sentB) = (Self.hanging(), ScriptedTransport())
        let (replicaA, replicaB) = (Self.manager(store, sentA, clock), Self.manager(store, sentB, clock))
        let link = URL("https://news.example.com/pub/acc?_ri_=cut")
        let first = Task { try await replicaA.resolve(link) }
        await sentA.waitForRequests(1)
        clock.advance(by: .seconds(1))
        #expect(try await first.value.resolvedLink?.error?.code == .timeout)
        // Replica B is asked for the same click: it gets A's published timeout (at once, or when A publishes it),
        // and sends nothing.
        let second = try await replicaB.resolve(link)
        #expect(second.resolvedLink?.error?.code == .timeout)
        #expect(second.isDuplicate)
        #expect(sentB.count == 0)
        #expect(store.takeoverCount == 0)
    }

    @Test func aWinnerCutByShutdownReleasesTheClickForAnotherReplicaAtOnce() async throws {
        let clock = ManualClock()
        let store = InMemoryClaimStore(window: .seconds(60), clock: clock.linkClock)
        let (sentA, sentB) = (Self.hanging(), ScriptedTransport(fallback: { _ in .json(LinkManagerTests.both) }))
        let (replicaA, replicaB) = (Self.manager(store, sentA, clock), Self.manager(store, sentB, clock))
        let link = URL("https://news.example.com/pub/acc?_ri_=shutdown")
        let first = Task { try await replicaA.resolve(link) }
        await sentA.waitForRequests(1)
        await replicaA.shutdown(gracePeriod: .zero)
        #expect(try await first.value.resolvedLink?.error?.code == .cancelled)
        // No time passes: B does not wait for A's lease; the released click is won again, without a takeover.
        let second = try await replicaB.resolve(link)
        #expect(second.resolvedLink?.deepLinkURL == URL("example-app://products/1234"))
        #expect(!second.isDuplicate)
        #expect(sentB.count == 1)
        #expect(store.takeoverCount == 0)
    }
}
