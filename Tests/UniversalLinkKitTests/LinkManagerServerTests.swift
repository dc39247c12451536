import Foundation
import Synchronization
import _LinkKitLocking
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// The manager as a backend uses it: one await per incoming link, results as a sequence, events, shutdown.
struct LinkManagerServerTests {
    typealias Fixture = LinkManagerTests.Fixture
    static let appLink = LinkManagerTests.appLink
    static let both = LinkManagerTests.both

    /// A transport that answers each request after `delay`.
    static func slow(_ delay: Duration, body: String = LinkManagerTests.both) -> ScriptedTransport {
        ScriptedTransport(fallback: { _ in
            try await Task.sleep(for: delay)
            return .json(body)
        })
    }

    @Test func resolveReturnsTheLinkAfterOneRequestAndOneNotification() async throws {
        let fixture = Fixture()
        let outcome = try await fixture.manager.resolve(Self.appLink)
        let link = try #require(outcome.resolvedLink)
        #expect(link.deepLinkURL == URL("example-app://products/1234"))
        #expect(!outcome.isDuplicate)
        #expect(await fixture.recorder.wait(for: Self.appLink) == link)
        await fixture.manager.waitUntilIdle()
        #expect(fixture.recorder.count == 1)
        #expect(fixture.transport.count == 1)
    }

    @Test(arguments: [
        URL("https://news.example.com/account/delete"),
        LinkManagerTests.nonAppLink,
        URL("example-app://pub/acc"),
    ])
    func aURLThatIsNotAPubWebAppLinkIsRefusedWithoutARequest(url: URL) async throws {
        let fixture = Fixture()
        let error = await #expect(throws: LinkError.self) { try await fixture.manager.resolve(url) }
        #expect(error?.code == .notPubWebLink)
        #expect(error?.message.contains("not a pub-web app link") == true)
        await fixture.manager.waitUntilIdle()
        #expect(fixture.transport.count == 0)
        #expect(fixture.recorder.count == 0)
    }

    @Test func concurrentCallsForOneClickMakeOneRequestAndAllGetItsResult() async throws {
        let fixture = Fixture(transport: Self.slow(.milliseconds(200)))
        let outcomes = try await withThrowingTaskGroup(of: LinkOutcome.self) { group in
            for _ in 0..<20 { group.addTask { try await fixture.manager.resolve(Self.appLink) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == 20)
        #expect(Set(outcomes.map(\.resolvedLink)).count == 1)
        #expect(outcomes.filter { !$0.isDuplicate }.count == 1)
        await fixture.manager.waitUntilIdle()
        #expect(fixture.transport.count == 1)
        #expect(fixture.recorder.count == 1)
    }

    @Test func aRepeatWithinTheDuplicateWindowGetsTheResultAtOnceWithoutARequest() async throws {
        // A long window: on a loaded machine this test may resume seconds after the resolution completed.
        // The first request is answered at once; any later one would take 15 minutes.
        let transport = ScriptedTransport([{ _ in .json(Self.both) }], fallback: { _ in
            try await Task.sleep(for: .seconds(900))
            return .json(Self.both)
        })
        let fixture = Fixture(transport: transport) { $0.duplicateWindow = .seconds(900) }
        let first = try await fixture.manager.resolve(Self.appLink)
        let clock = ContinuousClock()
        var again: LinkOutcome?
        let elapsed = try await clock.measure { again = try await fixture.manager.resolve(Self.appLink) }
        #expect(elapsed < .seconds(300))  // not the 15 minutes a request would take, however loaded the machine
        #expect(again?.isDuplicate == true)
        #expect(again?.resolvedLink == first.resolvedLink)
        await fixture.manager.waitUntilIdle()
        #expect(fixture.transport.count == 1)
        #expect(fixture.recorder.count == 1)
    }

    @Test func aURLWithCredentialsIsRefusedBeforeItCanTakeOrJoinTheCleanLinksSlot() async throws {
        let fixture = Fixture(transport: Self.slow(.milliseconds(100)))
        let withCredentials = URL("https://user:secret@news.example.com/pub/acc?_ri_=X&_ei_=Y")
        async let refused = fixture.manager.resolve(withCredentials)
        async let clean = fixture.manager.resolve(Self.appLink)
        let (refusedOutcome, cleanOutcome) = try await (refused, clean)
        #expect(refusedOutcome.resolvedLink?.error?.code == .hostNotAllowed)
        #expect(refusedOutcome.resolvedLink?.error?.message.contains("secret") == false)
        #expect(cleanOutcome.resolvedLink?.error == nil)
        #expect(!cleanOutcome.isDuplicate)
        // And the other order: the clean link first, then the one with credentials.
        let again = try await fixture.manager.resolve(withCredentials)
        #expect(again.resolvedLink?.error?.code == .hostNotAllowed)
        #expect(!again.isDuplicate)
        await fixture.manager.waitUntilIdle()
        #expect(fixture.transport.count == 1)
        #expect(fixture.transport.requests.allSatisfy { $0.url.user == nil })
    }

    @Test func aCallsOwnTimeoutBoundsTheResolutionItStarts() async throws {
        let fixture = Fixture(transport: Self.slow(.seconds(30)))
        let outcome = try await fixture.manager.resolve(Self.appLink, timeout: .milliseconds(300))
        #expect(outcome.resolvedLink?.error?.code == .timeout)
        let notified = await fixture.recorder.wait(for: Self.appLink)
        #expect(notified?.error?.code == .timeout)
    }

    /// A transport whose answers wait at `gate`.
    static func gated(_ gate: Gate) -> ScriptedTransport {
        ScriptedTransport(fallback: { _ in
            await gate.wait()
            return .json(LinkManagerTests.both)
        })
    }

    @Test func aJoiningCallGivesUpAtItsOwnTimeoutWhileTheResolutionGoesOn() async throws {
        // The answer waits until the joiner has given up, however late a loaded machine runs its timer.
        let gate = Gate()
        let fixture = Fixture(transport: Self.gated(gate))
        let first = fixture.manager.handle(UserActivity(browsingWeb: Self.appLink))  // starts the resolution now
        let error = await #expect(throws: LinkError.self) {
            try await fixture.manager.resolve(Self.appLink, timeout: .milliseconds(100))
        }
        #expect(error?.code == .timeout)
        gate.open()
        let firstOutcome = await first.outcome
        #expect(firstOutcome.resolvedLink?.error == nil)
        await fixture.manager.waitUntilIdle()
        #expect(fixture.transport.count == 1)
        #expect(fixture.recorder.count == 1)
    }

    @Test func aCancelledCallerGetsCancelledAtOnceAndTheLinkIsStillResolvedAndNotified() async throws {
        let gate = Gate()
        let fixture = Fixture(transport: Self.gated(gate))
        let caller = Task { try await fixture.manager.resolve(Self.appLink) }
        await fixture.transport.waitForRequests(1)  // the resolution is under way, and waits at the gate
        caller.cancel()
        let result = await caller.result
        #expect(throws: LinkError.self) { try result.get() }
        #expect((try? result.get()) == nil)
        if case .failure(let error as LinkError) = result { #expect(error.code == .cancelled) }
        gate.open()
        let notified = await fixture.recorder.wait(for: Self.appLink)
        #expect(notified?.error == nil)
        #expect(fixture.transport.count == 1)
    }

    @Test func resultsSeeTheSameLinksInTheSameOrderAsTheNotifications() async throws {
        let fixture = Fixture()
        let results = fixture.manager.results()
        let urls = (0..<5).map { URL(string: "https://news.example.com/pub/acc?_ri_=\($0)")! }
        for url in urls { _ = try await fixture.manager.resolve(url) }
        await fixture.manager.shutdown()
        var seen: [URL] = []
        for await link in results { seen.append(link.requestedURL) }
        #expect(seen == fixture.recorder.links.map(\.requestedURL))
        #expect(seen == urls)
    }

    @Test func eventsDescribeEachStepWithoutCredentials() async throws {
        let events = EventLog()
        let fixture = Fixture {
            $0.eventHandler = events.handler
            // The second call must fall in the window however long a loaded machine holds the test.
            $0.duplicateWindow = .seconds(3600)
        }
        _ = try await fixture.manager.resolve(Self.appLink)
        _ = try await fixture.manager.resolve(Self.appLink)
        _ = try await fixture.manager.resolve(URL("https://u:p4ss@news.example.com/pub/acc?_ri_=Z"))
        _ = try? await fixture.manager.resolve(URL("https://news.example.com/account"))
        await fixture.manager.waitUntilIdle()
        let kinds = events.kinds(for: Self.appLink)
        #expect(kinds.prefix(4) == [.received, .requestSent, .answered, .resolved])
        let answered = events.all.first { $0.kind == .answered }
        #expect(answered?.statusCode == 200 && answered?.attempt == 1 && (answered?.bytes ?? 0) > 0)
        #expect(kinds.contains(.delivered))
        #expect(kinds.filter { $0 == .coalesced }.count == 1)
        #expect(events.kinds.filter { $0 == .refused }.count == 2)
        #expect(events.all.allSatisfy { !$0.description.contains("p4ss") && $0.url.password == nil })
        let failed = events.all.first { $0.kind == .refused && $0.errorCode == .notPubWebLink }
        #expect(failed != nil)
    }

    @Test func shutdownFinishesInFlightLinksRefusesNewOnesAndNotifiesEachOnce() async throws {
        let fixture = Fixture(transport: Self.slow(.milliseconds(300)))
        let inFlight = fixture.manager.handle(UserActivity(browsingWeb: Self.appLink))  // in flight from here
        let results = fixture.manager.results()
        await fixture.manager.shutdown(gracePeriod: .seconds(5))
        let outcome = await inFlight.outcome
        #expect(outcome.resolvedLink?.error == nil)
        #expect(fixture.recorder.links(for: Self.appLink).count == 1)
        let refused = await #expect(throws: LinkError.self) {
            try await fixture.manager.resolve(URL("https://news.example.com/pub/acc?_ri_=later"))
        }
        #expect(refused?.code == .shuttingDown)
        #expect(!fixture.manager.continueUserActivity(UserActivity(browsingWeb: URL("https://news.example.com/pub/acc?_ri_=l"))))
        var delivered = 0
        for await _ in results { delivered += 1 }
        #expect(delivered == 1)
        #expect(fixture.transport.count == 1)
    }

    @Test func aRetryIsReportedWithItsReasonAndBothRequests() async throws {
        let events = EventLog()
        let transport = ScriptedTransport([{ _ in .status(503) }], fallback: { _ in .json(LinkManagerTests.both) })
        let fixture = Fixture(transport: transport) { $0.eventHandler = events.handler }
        _ = try await fixture.manager.resolve(Self.appLink)
        #expect(events.kinds(for: Self.appLink).prefix(6) == [.received, .requestSent, .answered, .retrying, .requestSent, .answered])
        #expect(events.all.filter { $0.kind == .answered }.map(\.statusCode) == [503, 200])
        #expect(events.all.first { $0.kind == .retrying }?.reason?.isEmpty == false)
    }

    @Test func shutdownCancelsWhatOutlivesTheGracePeriodAndStillNotifiesIt() async throws {
        let fixture = Fixture(transport: ScriptedTransport(fallback: { _ in
            try await Task.sleep(for: .seconds(900))
            return .json(LinkManagerTests.both)
        }))
        let handle = fixture.manager.handle(UserActivity(browsingWeb: Self.appLink))
        let clock = ContinuousClock()
        let elapsed = await clock.measure { await fixture.manager.shutdown(gracePeriod: .milliseconds(200)) }
        // The transport would hold it for 15 minutes; a full parallel run under a sanitizer stalled this ~60 s.
        #expect(elapsed < .seconds(300))
        #expect(await handle.outcome.resolvedLink?.error?.code == .cancelled)
        #expect(fixture.recorder.links.map { $0.error?.code } == [.cancelled])
    }

    @Test func anObserverThatWaitsForAnotherLinksResultDoesNotDeadlock() async throws {
        let fixture = Fixture()
        let other = URL("https://news.example.com/pub/acc?_ri_=other")
        let waited = Mutex(false)
        let token = fixture.center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            guard ResolvedLink(notification: note)?.requestedURL == Self.appLink else { return }
            // Handles another link synchronously from inside the callback and blocks until its result exists.
            let handle = fixture.manager.handle(UserActivity(browsingWeb: other))
            let done = DispatchSemaphore(value: 0)
            Task { _ = await handle.outcome; done.signal() }
            // A deadlock detector, not a timing: generous for a loaded machine.
            waited.withTrackedLock { $0 = done.wait(timeout: .now() + 120) == .success }
        }
        defer { fixture.center.removeObserver(token) }
        _ = try await fixture.manager.resolve(Self.appLink)
        #expect(await fixture.recorder.wait(for: other) != nil)
        #expect(waited.withTrackedLock { $0 })
    }

    @Test func shutdownWaitsForALinkThatWasBeingTakenWhenItBegan() async throws {
        // The link is held between the shutdown check and its slot (in its `received` event) while shutdown begins:
        // shutdown must count it, resolve it and deliver its notification before returning.
        let entered = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let fixture = Fixture { configuration in
            configuration.eventHandler = LinkEventHandler { event in
                guard event.kind == .received else { return }
                entered.continuation.yield()
                // The test always signals; the hour only keeps a broken build from hanging forever (a shorter wait
                // could run out on a busy machine and let the link in before the shutdown began).
                _ = release.wait(timeout: .now() + 3600)
            }
        }
        // A thread of its own, not a global queue's: the handler blocks it until the test signals, and a blocked
        // global-queue thread can be one the concurrency pool needs to run the test itself.
        Thread { fixture.manager.continueUserActivity(UserActivity(browsingWeb: Self.appLink)) }.start()
        var iterator = entered.stream.makeAsyncIterator()
        _ = await iterator.next()
        let shutdown = Task { await fixture.manager.shutdown(gracePeriod: .seconds(30)) }
        while fixture.manager.isAcceptingLinks { await Task.yield() }
        release.signal()
        await shutdown.value
        #expect(fixture.recorder.links.map(\.requestedURL) == [Self.appLink])
        #expect(fixture.recorder.links.first?.error == nil)
        #expect(fixture.transport.count == 1)
    }

    @Test func waitUntilIdleAlsoWaitsForALinkAnObserverHandedIn() async throws {
        let gate = Gate()
        let other = URL("https://news.example.com/pub/acc?_ri_=other")
        let transport = ScriptedTransport([{ _ in .json(Self.both) }], fallback: { _ in
            await gate.wait()
            return .json(Self.both)
        })
        let fixture = Fixture(transport: transport)
        let token = fixture.center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            guard ResolvedLink(notification: note)?.requestedURL == Self.appLink else { return }
            fixture.manager.continueUserActivity(UserActivity(browsingWeb: other))
        }
        defer { fixture.center.removeObserver(token) }
        fixture.manager.continueUserActivity(UserActivity(browsingWeb: Self.appLink))
        let idle = Task { await fixture.manager.waitUntilIdle() }
        await fixture.transport.waitForRequests(2)  // the observer's link is in flight, at the gate
        gate.open()
        await idle.value
        #expect(Set(fixture.recorder.links.map(\.requestedURL)) == [Self.appLink, other])
    }

    @Test func shutdownLeavesATransportItWasGivenToItsOwner() async {
        let given = Fixture()
        await given.manager.shutdown()
        #expect(given.transport.shutdowns == 0)
    }

    @Test func theFlatConfigurationSetsTheBrandedDomainsAndTheDeadline() {
        let configuration = LinkManager.Configuration(brandedDomains: ["news.example.com"], timeout: .seconds(3))
        #expect(configuration.policy.brandedDomains == ["news.example.com"])
        #expect(configuration.timeout == .seconds(3))
        #expect(configuration.duplicateWindow == .seconds(2))
    }
}

/// The test kit's one-call fixture, against the loopback stub through the real transport.
struct LinkFixtureTests {
    @Test func theFixtureResolvesADemoLinkThroughTheStubAndRecordsItsNotification() async throws {
        let fixture = try LinkFixture()
        let url = fixture.url("/pub/acc?_ri_=product")
        let outcome = try await fixture.manager.resolve(url)
        #expect(outcome.resolvedLink?.deepLinkURL == URL("example-app://products/1234"))
        #expect(await fixture.recorder.wait(for: url)?.webLinkURL == URL("https://www.example.com/products/1234"))
        #expect(fixture.stub.requests.count == 1)
        #expect(fixture.stub.requests.first?.query == "_ri_=product")
        await fixture.shutdown()
    }

    @Test func theRecordingOpenerSeesWhatNoRouteTakes() async throws {
        let fixture = try LinkFixture()
        fixture.manager.executeRsysWebURL = false
        let url = URL("https://www.example.com/elsewhere")
        fixture.manager.handleInAppHyperlink(url)
        #expect(fixture.opener.urls == [url])
        await fixture.shutdown()
    }
}

extension LinkManagerServerTests {
    @Test func cancellingTheShutdownEndsTheGracePeriodAtOnce() async throws {
        let fixture = Fixture(transport: ScriptedTransport(fallback: { _ in
            try await Task.sleep(for: .seconds(900))
            return .json(LinkManagerTests.both)
        }))
        let handle = fixture.manager.handle(UserActivity(browsingWeb: Self.appLink))
        let shutdown = Task { await fixture.manager.shutdown(gracePeriod: .seconds(900)) }
        shutdown.cancel()
        let elapsed = await ContinuousClock().measure { await shutdown.value }
        #expect(elapsed < .seconds(300))  // not the 15-minute grace period, nor the transport's 15 minutes
        #expect(await handle.outcome.resolvedLink?.error?.code == .cancelled)
        #expect(fixture.recorder.links.map { $0.error?.code } == [.cancelled])
    }
}
